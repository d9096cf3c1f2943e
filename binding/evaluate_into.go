package binding

import (
	"hash/maphash"
	"unsafe"

	"k8s.io/apimachinery/pkg/types"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/conditions"
)

// ResultBuffer is a Result together with the working state that
// EvaluateInto keeps from one evaluation to the next: the indexes, the
// sorted orders and the backing arrays of the Result's lists. Its zero
// value is ready to use. A ResultBuffer is not safe for concurrent use.
type ResultBuffer struct {
	// Result is the last evaluation's result; EvaluateInto replaces it.
	Result
	sc *scratch
}

// EvaluateInto is Evaluate writing its result into dst.Result, reusing
// what dst held from the previous call instead of allocating it again:
// the outcome and memory lists, the per-evaluation indexes, and the
// order of the Bindings when it is still sorted. A host that evaluates a
// snapshot over and over, most of it unchanged, allocates next to
// nothing per Binding this way. dst.Result is equal to what Evaluate(s)
// returns, nil lists included; on an error dst is left as it was.
//
// Ownership. EvaluateInto writes over the lists dst held before the call
// (Bindings, Memory.Objects, IgnoredProbes, Errors, and the outcomes in
// them): a caller that needs any of them after the next call copies them
// first. Two things are never written over:
//
//   - condition lists: an outcome's Conditions and Status.Conditions are
//     the snapshot's own list when nothing changed, or a new list, so a
//     host may Apply them to its objects and keep them;
//   - a list the snapshot reads: a host may pass dst.Memory on as the
//     next snapshot's Served, as hosts do; the new memory is then written
//     into another array.
//
// dst keeps references into the last snapshot it evaluated until the
// next call, as a Result does.
func EvaluateInto(dst *ResultBuffer, s Snapshot) error {
	if err := conditions.CheckNow(s.Now); err != nil {
		return err
	}
	if dst.sc == nil || dst.sc.oversized(len(s.Bindings)) {
		dst.sc = &scratch{carry: &keptPass{}}
	}
	dst.Result = evaluateIn(&s, false, nil, dst.sc)
	return nil
}

// scratch is an evaluation's working memory. Evaluate starts from an
// empty one each time; EvaluateInto keeps one per ResultBuffer, so the
// next evaluation clears and refills it instead of allocating.
type scratch struct {
	ix     index
	probes probeIndex
	e      evaluator
	// sized is the number of Bindings the scratch was last sized for.
	sized int
	// carry is set in a scratch kept from pass to pass (EvaluateInto): it
	// then also notes what a later pass can keep, where a single pass
	// would only pay to note it. It is a pointer so that a single pass's
	// scratch stays in its allocation size class.
	carry *keptPass

	// The identity checks' tables: the first position of each hash of a
	// UID and of a kind and namespaced name, and what each object shares.
	uids, names map[uint64]int32
	shared      []uint8
	seed        maphash.Seed
	seeded      bool
	ok          []bool
	// What the last pass's identity checks read and found (buildIndex):
	// primed is set once they ran on the identities in idKeys, of lists
	// of lens; idErrors are the objects they left out.
	primed   bool
	sameIDs  bool // this pass's identities are the last pass's
	lens     [3]int
	idKeys   []idKey
	idErrors []ObjectError
	// The memory's UIDs by position in the last pass, the positions of
	// its entries by UID, and whether every entry was usable and of a
	// UID of its own (memClean).
	memUIDs  []types.UID
	memIndex map[types.UID]int32
	memClean bool

	st      []bstate
	holders map[claimKey]int32
	// claimsKept: every Binding claims what it claimed in the last pass,
	// whose holders it then holds (resolve).
	claimsKept bool

	// Sorted positions of the Bindings, AgentBackends and ChatConnections
	// by namespace, name and UID, kept while they stay sorted.
	bindingOrder, backendOrder, connOrder []int32
	rank                                  []int32
	kept                                  []bool
	bmem                                  []servedAt

	// The Result's lists (IgnoredProbes is in probes). mem holds two
	// arrays for the memory, so the one a snapshot reads as Served is
	// never the one written.
	outcomes []Outcome
	mem      [2][]Served
	errors   []ObjectError
}

// keptPass is what a kept scratch notes for the next pass, by the
// position of each Binding.
type keptPass struct {
	// claims are what each Binding's holders were decided from, and the
	// holders found, in the last pass.
	claims []claimIn
	// refs are what each Binding's names were found as.
	refs []keptRefs
	// checks are the broker's checks on each object's spec.
	checks keptChecks
}

// nameKey is an object's kind and namespaced name.
type nameKey struct {
	kind     string
	ns, name string
}

// servedAt is what a Binding serves: a generation and its spec.
type servedAt struct {
	gen  int64
	spec *akv1.BindingSpec
}

// oversized reports that the scratch was sized for far more Bindings
// than n: clearing its maps would cost the old size on every call, so
// it is better dropped.
func (sc *scratch) oversized(n int) bool { return sc.sized > 1024 && n < sc.sized/4 }

// reuse returns buf with length n and every element zero, allocating
// only when its capacity is short.
func reuse[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// reuseMap returns m emptied, or a new map sized for n when there is none.
func reuseMap[K comparable, V any](m map[K]V, n int) map[K]V {
	if m == nil {
		return make(map[K]V, n)
	}
	clear(m)
	return m
}

// memoryBuffer returns an empty list to build the next memory in, with
// capacity for n entries, that does not share an array with the memory
// the snapshot reads.
func (sc *scratch) memoryBuffer(reads []Served, n int) []Served {
	k := 0
	if overlaps(sc.mem[0], reads) {
		k = 1
	}
	if sc.mem[k] == nil || overlaps(sc.mem[k], reads) || cap(sc.mem[k]) < n {
		sc.mem[k] = make([]Served, 0, n)
	}
	return sc.mem[k][:0]
}

// overlaps reports whether the arrays behind a and b, to their capacity,
// share any element.
func overlaps[T any](a, b []T) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	size := unsafe.Sizeof(*new(T))
	a0, b0 := uintptr(unsafe.Pointer(unsafe.SliceData(a))), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a0 < b0+uintptr(cap(b))*size && b0 < a0+uintptr(cap(a))*size
}

// orNil returns buf, or nil when it is empty: Evaluate leaves empty
// IgnoredProbes and Errors nil, and EvaluateInto must equal it.
func orNil[T any](buf []T) []T {
	if len(buf) == 0 {
		return nil
	}
	return buf
}
