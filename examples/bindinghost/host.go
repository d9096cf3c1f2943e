package bindinghost

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-logr/logr"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
	"github.com/condengine/condengine/binding"
	"github.com/condengine/condengine/binding/policy"
)

// FieldManager is the field manager of every status write, as the broker
// documents it.
const FieldManager = "agent-kourier"

// The kinds the host reads.
var (
	BindingGVK        = schema.GroupVersionKind{Group: akv1.GroupName, Version: akv1.Version, Kind: akv1.KindBinding}
	AgentBackendGVK   = schema.GroupVersionKind{Group: akv1.GroupName, Version: akv1.Version, Kind: akv1.KindAgentBackend}
	ChatConnectionGVK = schema.GroupVersionKind{Group: akv1.GroupName, Version: akv1.Version, Kind: akv1.KindChatConnection}
)

// Host evaluates and writes Binding status for one broker. It is safe for
// concurrent use; RunOnce calls are serialised.
type Host struct {
	client   client.Client
	limits   policy.Limits
	broker   string
	log      logr.Logger
	recorder record.EventRecorder

	mu           sync.Mutex
	reader       client.Reader // where passes read objects: the client, or the watched cache
	watching     bool
	st           state
	leader       bool
	startedAt    time.Time
	proberListed bool
	probes       map[types.UID]binding.ProbeResult
	writers      map[types.UID]policy.Memory
	// pending maps a UID to the resourceVersion its last successful write
	// started from, and the conditions written (see the package doc).
	pending map[types.UID]ownWrite

	// The changes informers reported, read at the next pass (see events.go).
	evMu   sync.Mutex
	events map[eventKey]struct{}
	relist bool
}

type ownWrite struct {
	from       string
	conditions []metav1.Condition
}

// New returns a host for the broker named brokerName ("" is the default
// broker) that reads and writes through c. It fails when limits do not
// validate. The host starts as the leader: run under a manager, it only
// runs on the leader; use SetLeader for a standby that computes but never
// writes.
func New(c client.Client, limits policy.Limits, brokerName string) (*Host, error) {
	if c == nil {
		return nil, errors.New("bindinghost: nil client")
	}
	if err := limits.Validate(); err != nil {
		return nil, fmt.Errorf("bindinghost: %w", err)
	}
	return &Host{
		client:  c,
		reader:  c,
		st:      newState(),
		events:  map[eventKey]struct{}{},
		limits:  limits,
		broker:  brokerName,
		log:     logr.Discard(),
		leader:  true,
		probes:  map[types.UID]binding.ProbeResult{},
		writers: map[types.UID]policy.Memory{},
		pending: map[types.UID]ownWrite{},
	}, nil
}

// WithLogger sets the logger that receives the causes behind conditions,
// fights and failed writes; it returns h.
func (h *Host) WithLogger(l logr.Logger) *Host {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log = l
	return h
}

// WithEventRecorder sets the recorder that receives one Event per
// condition transition a write makes (see ctrlplan.RecordTransitions); it
// returns h. Without one, no Event is recorded.
func (h *Host) WithEventRecorder(rec record.EventRecorder) *Host {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recorder = rec
	return h
}

// SetLeader says whether this replica writes. A standby still evaluates.
// A replica that becomes the leader lists and evaluates everything at
// its next pass, as at its first.
func (h *Host) SetLeader(leader bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if leader && !h.leader {
		h.st.inc = nil
	}
	h.leader = leader
}

// SetStartedAt sets when this broker process started; by default it is
// the instant of the first RunOnce. Until Limits.StartupList after it, and
// unless SetProberListed was called, Ready reads the bare Pending.
func (h *Host) SetStartedAt(t time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.startedAt = t
}

// SetProberListed records that the prober has listed the Bindings.
func (h *Host) SetProberListed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.proberListed = true
}

// RecordProbe keeps a finished probe result; it replaces the previous one
// of the same Binding UID.
func (h *Host) RecordProbe(p binding.ProbeResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.probes[p.UID] = p
	h.st.probesDue[p.UID] = struct{}{}
}

// Served returns the broker's memory of good generations after the last
// RunOnce, sorted as Evaluate returns it.
func (h *Host) Served() binding.ServedMemory {
	h.mu.Lock()
	defer h.mu.Unlock()
	return servedMemory(h.st.memOut)
}

// NeedLeaderElection makes a manager run the host only on the leader.
func (h *Host) NeedLeaderElection() bool { return true }

// Start runs RunOnce every Limits.WriterTick until ctx ends; it is the
// manager.Runnable form of the host.
func (h *Host) Start(ctx context.Context) error {
	t := time.NewTicker(h.limits.WriterTick)
	defer t.Stop()
	for {
		if _, err := h.RunOnce(ctx, time.Now()); err != nil && ctx.Err() == nil {
			h.log.Error(err, "binding status pass failed")
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
