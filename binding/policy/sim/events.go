package sim

import (
	"container/heap"
	"time"
)

// event is one thing that happens at one instant. Events at the same
// instant run in the order they were scheduled, so a run is a pure
// function of its script.
type event struct {
	at  time.Time
	seq uint64
	fn  func()
}

type queue []event

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if c := q[i].at.Compare(q[j].at); c != 0 {
		return c < 0
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// At schedules fn to run at t. A time before the simulation's now runs at
// now: the past cannot be changed.
func (s *Sim) At(t time.Time, fn func()) {
	if t.Before(s.now) {
		t = s.now
	}
	s.seq++
	heap.Push(&s.queue, event{at: t, seq: s.seq, fn: fn})
}

// After schedules fn to run d after now.
func (s *Sim) After(d time.Duration, fn func()) { s.At(s.now.Add(d), fn) }

// RunUntil runs every event up to and including t, in time order, and
// leaves the clock at t.
func (s *Sim) RunUntil(t time.Time) {
	for s.queue.Len() > 0 && !s.queue[0].at.After(t) {
		e := heap.Pop(&s.queue).(event)
		s.now = e.at
		s.clock.Set(e.at)
		e.fn()
	}
	if t.After(s.now) {
		s.now = t
		s.clock.Set(t)
	}
}

// Run runs the simulation for d from now.
func (s *Sim) Run(d time.Duration) { s.RunUntil(s.now.Add(d)) }
