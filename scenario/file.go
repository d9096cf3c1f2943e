package scenario

import (
	"encoding/json"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/condengine/condengine/conditions"
	"github.com/condengine/condengine/manifest"
)

// File is one scenario: one moment of one system, the world as the host
// operator sees it, and what must be written. Its YAML form is the public
// contract described in docs/scenarios.md; fields are only ever added.
type File struct {
	// Path is where the file was read from; empty for parsed bytes.
	Path string `json:"-"`
	// Name is the one-line title of the scenario.
	Name string `json:"name"`
	// System names the system the scenario is of ("binding", "finops",
	// or any other a runner is given for); the format takes any name,
	// and the runner set decides whether it knows it.
	System string `json:"system"`
	// Now is the instant the evaluation happens at.
	Now metav1.Time `json:"now"`
	// Broker describes the Agent Kourier broker (binding only).
	Broker *Broker `json:"broker,omitempty"`
	// Objects are manifests as the API server holds them, status included,
	// kept raw so each system decodes the kinds it knows.
	Objects []json.RawMessage `json:"objects,omitempty"`
	// Served is the broker's memory of last good generations (binding).
	Served []Served `json:"served,omitempty"`
	// Probes are the finished probe observations (binding).
	Probes []Probe `json:"probes,omitempty"`
	// Writer carries the status writer's memory and timing (binding).
	Writer *Writer `json:"writer,omitempty"`
	// Prober carries the prober's state and timing (binding): the passes
	// so far and the triggers not yet covered. An expectation of kind
	// KindProber checks the schedule it gives.
	Prober *Prober `json:"prober,omitempty"`
	// Failures are API reads that fail (finops ValidationError paths).
	Failures []Failure `json:"failures,omitempty"`
	// Collection is a SubscriptionChargeCollection run that happened at
	// now (finops).
	Collection *Collection `json:"collection,omitempty"`
	// Observed is what the host observed besides the objects (probe
	// results, a run of a job, a read that failed), as one mapping of
	// keys in the system's own shape. The format checks only that it is a
	// mapping; the system reads it with DecodeObserved, as strictly as
	// the rest of the file.
	Observed json.RawMessage `json:"observed,omitempty"`
	// Expect lists what must be written; objects not listed are not
	// checked.
	Expect []Expectation `json:"expect"`

	// source is the document the file was read from, kept only when the
	// file has an observed block, so DecodeObserved can name the line of
	// a field; observed is that block as read, to tell whether it was
	// changed since.
	source   *manifest.Document
	observed json.RawMessage
}

// RetryNone is the value of an expectation's retryAt that says the host
// holds no write back.
const RetryNone = "none"

// KindProber is the kind an expectation names to check the broker's
// prober rather than an object: its name is the broker's name, "default"
// for the default broker, and its only key is pass.
const KindProber = "Prober"

// Broker is the broker's state in a binding scenario. Every field is
// optional; see the defaults on each.
type Broker struct {
	// StartedAt defaults to one hour before now.
	StartedAt *metav1.Time `json:"startedAt,omitempty"`
	// ConfigSource is ConfigSourceCRDs (the default) or
	// ConfigSourceConfigMap.
	ConfigSource string `json:"configSource,omitempty"`
	// Leader defaults to true.
	Leader *bool `json:"leader,omitempty"`
	// Name is the broker's name; "" is the default broker.
	Name string `json:"name,omitempty"`
	// ProberListed says whether the prober has listed the Bindings yet;
	// defaults to true.
	ProberListed *bool `json:"proberListed,omitempty"`
}

// Served is one entry of the broker's memory: the last good generation of
// an object and the spec it had then.
type Served struct {
	Kind       string          `json:"kind"`
	Namespace  string          `json:"namespace"`
	Name       string          `json:"name"`
	UID        string          `json:"uid"`
	Generation int64           `json:"generation"`
	Spec       json.RawMessage `json:"spec,omitempty"`
}

// Probe is what one finished probe pass observed for one Binding.
type Probe struct {
	// Binding is "namespace/name".
	Binding string `json:"binding"`
	// UID defaults to the Binding's current uid.
	UID string `json:"uid,omitempty"`
	// Generation is the generation the pass began with.
	Generation int64 `json:"generation"`
	// Backend is the agent card fetch; nil when it has not finished.
	Backend *Observation `json:"backend,omitempty"`
	// Channel is the chat platform's answer; nil when it has not finished.
	Channel *Observation `json:"channel,omitempty"`
}

// Observation is one probe's raw outcome, before classification.
type Observation struct {
	HTTP       int             `json:"http,omitempty"`
	Card       json.RawMessage `json:"card,omitempty"`
	CardText   *string         `json:"cardText,omitempty"`
	CardBytes  int64           `json:"cardBytes,omitempty"`
	Error      string          `json:"error,omitempty"`
	OK         bool            `json:"ok,omitempty"`
	IsMember   *bool           `json:"isMember,omitempty"`
	IsArchived *bool           `json:"isArchived,omitempty"`
	RetryAfter int             `json:"retryAfter,omitempty"`
	Timeout    bool            `json:"timeout,omitempty"`
	Failed     string          `json:"failed,omitempty"`
}

// Failure names an object whose read fails in a finops scenario.
type Failure struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// Collection is a SubscriptionChargeCollection run.
type Collection struct {
	ScheduledHour metav1.Time        `json:"scheduledHour"`
	Results       []CollectionResult `json:"results,omitempty"`
}

// CollectionResult is the run's outcome for one Subscription.
type CollectionResult struct {
	// Subscription is "namespace/name".
	Subscription string `json:"subscription"`
	// Buckets is how many cost buckets the run produced for it.
	Buckets int `json:"buckets"`
	// Source is SourceDB, SourceCalculator or SourceError.
	Source string `json:"source"`
}

// Expectation is what must hold for one object after evaluation. Each
// field is checked only when present.
type Expectation struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Conditions is the exact list, in order; an empty list means the
	// object gets no conditions.
	Conditions *[]ExpectedCondition `json:"conditions,omitempty"`
	// ConditionsInclude are conditions the object must carry, each found
	// by its type; the order and the object's other conditions are not
	// checked. A rule's example scenario expects this way: it shows what
	// the one rule decides, not the whole list.
	ConditionsInclude []ExpectedCondition `json:"conditionsInclude,omitempty"`
	// Status is a partial status: maps are compared key by key, lists and
	// scalars exactly, and null means the field must be absent.
	Status json.RawMessage `json:"status,omitempty"`
	// FinalizerRemoved says whether the evaluation drops the kind's
	// finalizer.
	FinalizerRemoved *bool `json:"finalizerRemoved,omitempty"`
	// Write says whether a status write is due.
	Write *bool `json:"write,omitempty"`
	// RetryAt is the instant the host retries a write it holds back, in
	// RFC 3339 and compared to the nanosecond, or RetryNone when it holds
	// none back.
	RetryAt *string `json:"retryAt,omitempty"`
	// Decision is the status writer's decision for the object: "write",
	// "wait" or "none" (binding scenarios with a writer block).
	Decision *string `json:"decision,omitempty"`
	// WaitUntil is when a "wait" decision may write.
	WaitUntil *metav1.Time `json:"waitUntil,omitempty"`
	// Fight says whether the writer reports a fight over the status.
	Fight *bool `json:"fight,omitempty"`
	// FightBegins says whether this decision begins a fight: the one
	// decision the writer reports it for (binding).
	FightBegins *bool `json:"fightBegins,omitempty"`
	// ForeignEdit says whether the writer counts the status on the object
	// as a new foreign edit (binding).
	ForeignEdit *bool `json:"foreignEdit,omitempty"`
	// Pass is the prober's schedule at now (kind KindProber only).
	Pass *PassExpectation `json:"pass,omitempty"`
}

// PassExpectation is what the prober decides at now and the pass it
// would run. Each field is checked only when present; instants and
// durations exactly.
type PassExpectation struct {
	// Start says whether a pass starts at now.
	Start *bool `json:"start,omitempty"`
	// At is when the next pass is due: now when it starts. While a pass
	// runs none is scheduled: expect cause none instead.
	At *metav1.Time `json:"at,omitempty"`
	// Cause is what the pass is for: leaderStart, config, secret,
	// periodic, or none while a pass runs.
	Cause *string `json:"cause,omitempty"`
	// Targets are the Bindings the pass probes, in the order their probes
	// start, each with the generation its probe conditions will carry.
	Targets *[]PassTarget `json:"targets,omitempty"`
	// AtOnce is how many Bindings are probed at the same time.
	AtOnce *int `json:"atOnce,omitempty"`
	// ProbeTimeout bounds each probe.
	ProbeTimeout *metav1.Duration `json:"probeTimeout,omitempty"`
	// MaxDuration is the longest the pass can take.
	MaxDuration *metav1.Duration `json:"maxDuration,omitempty"`
}

// PassTarget is one Binding of a pass.
type PassTarget struct {
	// Binding is "namespace/name".
	Binding string `json:"binding"`
	// Generation is the generation the probes claim.
	Generation int64 `json:"generation"`
}

// Pass is the prober's verdict and plan, as a runner reports it.
type Pass struct {
	Start        bool
	At           time.Time
	Cause        string
	Targets      []PassTarget
	AtOnce       int
	ProbeTimeout time.Duration
	MaxDuration  time.Duration
}

// ExpectedCondition is one expected condition. Type, Status and Reason are
// always compared; the rest only when given.
type ExpectedCondition struct {
	Type               string       `json:"type"`
	Status             string       `json:"status"`
	Reason             string       `json:"reason"`
	ObservedGeneration *int64       `json:"observedGeneration,omitempty"`
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty"`
	Message            *string      `json:"message,omitempty"`
	MessageContains    []string     `json:"messageContains,omitempty"`
	MessageExcludes    []string     `json:"messageExcludes,omitempty"`
	MessageMaxBytes    int          `json:"messageMaxBytes,omitempty"`
}

// Outcome is what a system computed for one object, in the form the
// expectations are checked against.
type Outcome struct {
	Kind      string
	Namespace string
	Name      string
	// Conditions is the list the object carries after this evaluation
	// (what is written, or what stays when nothing is).
	Conditions []metav1.Condition
	// Status is the whole computed status as JSON (conditions included or
	// not; the partial match only reads the keys the expectation gives).
	Status json.RawMessage
	// Finalizer is what the evaluation does with the kind's finalizer,
	// as conditions.Outcome.Finalizer says it; an expectation's
	// finalizerRemoved holds when it is conditions.FinalizerRemove.
	Finalizer conditions.FinalizerAction
	// Write reports that a status write is due.
	Write bool
	// Skip says why no write is made now, as conditions.Skip says it:
	// the engine's reason, or the status writer's where the runner models
	// one (a held write is conditions.SkipHeld). It is
	// conditions.SkipNone when the write is made, and also when the
	// runner does not say (an object the system answers nothing for).
	Skip conditions.Skip
	// RetryAt is when the host retries a write it holds back (a status
	// writer waiting out a gap or a backoff); zero when it holds none
	// back.
	RetryAt time.Time
	// Decision, WaitUntil, Fight, FightBegins and ForeignEdit are the
	// status writer's verdict, set by runners that model the writer.
	Decision    string
	WaitUntil   metav1.Time
	Fight       bool
	FightBegins bool
	ForeignEdit bool
	// Pass is the prober's verdict, on the outcome of kind KindProber.
	Pass *Pass
	// Provenance and Computed are set by a runner asked to explain (the
	// explain argument of system.System.Run): Computed is the condition
	// list the evaluation computed (Conditions when the write is made
	// now), and Provenance holds one entry per condition of Computed, in
	// its order, naming the rule that decided it and the evidence read.
	// Computed is not nil for an object the runner answers for, even when
	// it computes no condition, and nil for one it answers nothing for
	// (another broker's Binding) or of a kind without conditions; a tool
	// that explains (explain.FromOutcomes) lists the former only.
	// Evidence is raw: it belongs in logs and tools, never in a status.
	Provenance []conditions.Provenance
	Computed   []metav1.Condition
}

// Runner evaluates a scenario of one system and returns an outcome per
// object it knows. An error means the scenario itself is unusable (a bad
// manifest, an unknown kind), not that an expectation failed.
type Runner func(*File) ([]Outcome, error)
