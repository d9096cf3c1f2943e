package policy

import "github.com/condengine/condengine/binding"

// isOurs reports whether a condition type is one the Binding engine owns;
// other types belong to other controllers and are never an edit of ours.
// A switch on the four constants costs a few compares where the
// vocabulary's map would cost a hash per condition on the writer's hot
// path; TestIsOurs_MatchesTheVocabulary keeps the two in step.
func isOurs(t string) bool {
	switch t {
	case binding.TypeAccepted, binding.TypeBackendReachable, binding.TypeChannelJoined, binding.TypeReady:
		return true
	}
	return false
}
