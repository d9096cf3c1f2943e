package policy

import "github.com/condengine/condengine/binding"

// ourTypes are the condition types the Binding engine owns, in the
// vocabulary's order; other types belong to other controllers and are
// never an edit of ours. Comparing with the four constants costs a few
// string compares where the vocabulary's map would cost a hash per
// condition on the writer's hot path; TestOurTypes_MatchTheVocabulary
// keeps the two in step.
var ourTypes = [...]string{binding.TypeAccepted, binding.TypeBackendReachable, binding.TypeChannelJoined, binding.TypeReady}
