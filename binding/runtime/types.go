package runtime

import "github.com/condengine/condengine/binding"

// isOurs reports whether a condition type is one the Binding engine owns;
// other types belong to other controllers and are never an edit of ours.
func isOurs(t string) bool { return binding.Vocabulary.Has(t) }
