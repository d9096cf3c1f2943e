package binding

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	akv1 "github.com/condengine/condengine/api/agentkourier/v1alpha1"
)

// maxChannelBytes is the longest channel identifier the broker accepts.
const maxChannelBytes = 80

// quote renders an object's own value for a problem phrase: Go-quoted, so
// control characters stay visible and the phrase stays on one line, and
// whole: the only cut is the message's own
// 1024-byte rule.
func quote(s string) string {
	return strconv.Quote(s)
}

// problems collects "path: what is wrong" phrases in field order. It
// allocates only when there is a problem.
type problems []string

func (p *problems) add(path, what string) { *p = append(*p, path+": "+what) }

// isDNSLabel reports whether s is a DNS-1123 label. The rule is
// apimachinery's validation.IsDNS1123Label, to which a property test holds
// this function; it is not called here because its regular expression
// allocates whenever sync.Pool drops a matcher (always possible, and
// frequent under -race), and a Binding left unchanged must cost no
// allocation of its own.
func isDNSLabel(s string) bool { return len(s) <= 63 && labelChars(s) }

// isDNSSubdomain reports whether s is a DNS-1123 subdomain, as
// apimachinery's validation.IsDNS1123Subdomain decides (held to it by the
// same property test).
func isDNSSubdomain(s string) bool {
	if len(s) > 253 {
		return false
	}
	for part := range strings.SplitSeq(s, ".") {
		if !labelChars(part) {
			return false
		}
	}
	return true
}

// labelChars reports whether s is non-empty lower-case letters, digits
// and '-', starting and ending with a letter or digit.
func labelChars(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

// checkRef checks a reference: a required subdomain name and an optional
// label namespace. It reports whether the reference is usable.
func checkRef(p *problems, path string, r akv1.Ref) bool {
	ok := true
	switch {
	case r.Name == "":
		p.add(path+".name", "required")
		ok = false
	case !isDNSSubdomain(r.Name):
		p.add(path+".name", quote(r.Name)+" is not a DNS-1123 subdomain")
		ok = false
	}
	if r.Namespace != "" && !isDNSLabel(r.Namespace) {
		p.add(path+".namespace", quote(r.Namespace)+" is not a DNS-1123 label")
		ok = false
	}
	return ok
}

// specCheck is the outcome of the broker's checks on a Binding spec.
type specCheck struct {
	problems  problems
	backendOK bool // spec.agent.backendRef can be looked up
	connOK    bool // spec.chat.connectionRef can be looked up
	channelOK bool
}

// checkBinding runs the broker's checks on a Binding spec, in field order.
func checkBinding(s *akv1.BindingSpec) specCheck {
	var c specCheck
	c.backendOK = checkRef(&c.problems, "spec.agent.backendRef", s.Agent.BackendRef)
	c.connOK = checkRef(&c.problems, "spec.chat.connectionRef", s.Chat.ConnectionRef)
	c.channelOK = checkChannel(&c.problems, s.Chat.Channel)
	return c
}

func checkChannel(p *problems, ch string) bool {
	const path = "spec.chat.channel"
	switch {
	case ch == "":
		p.add(path, "required")
		return false
	case len(ch) > maxChannelBytes:
		p.add(path, quote(ch)+" is longer than "+strconv.Itoa(maxChannelBytes)+" bytes")
		return false
	case !utf8.ValidString(ch):
		p.add(path, quote(ch)+" is not valid UTF-8")
		return false
	}
	for _, r := range ch {
		if unicode.IsSpace(r) {
			p.add(path, quote(ch)+" contains white space")
			return false
		}
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			p.add(path, quote(ch)+" contains a control character")
			return false
		}
	}
	return true
}

func checkSecretRef(p *problems, path string, r *akv1.SecretKeyRef) {
	switch {
	case r.Name == "":
		p.add(path+".name", "required")
	case !isDNSSubdomain(r.Name):
		p.add(path+".name", quote(r.Name)+" is not a DNS-1123 subdomain")
	}
	if r.Key == "" {
		p.add(path+".key", "required")
	}
}

func checkAllowed(p *problems, list []string) {
	for i, ns := range list {
		if ns != "*" && !isDNSLabel(ns) {
			p.add("spec.allowedNamespaces["+strconv.Itoa(i)+"]", quote(ns)+` is not a DNS-1123 label or "*"`)
		}
	}
}

// checkBackend runs the broker's checks on an AgentBackend spec. The URL
// is never quoted: it is an address.
func checkBackend(s *akv1.AgentBackendSpec) problems {
	var p problems
	if what := urlProblem(s.URL); what != "" {
		p.add("spec.url", what)
	}
	if s.CardPath != "" && !strings.HasPrefix(s.CardPath, "/") {
		p.add("spec.cardPath", `must start with "/"`)
	}
	if s.AuthSecretRef != nil {
		checkSecretRef(&p, "spec.authSecretRef", s.AuthSecretRef)
	}
	checkAllowed(&p, s.AllowedNamespaces)
	return p
}

// urlProblem checks an agent URL without parsing it into a new value, so
// that checking a valid one allocates nothing.
func urlProblem(u string) string {
	if u == "" {
		return "required"
	}
	rest, ok := cutPrefixFold(u, "https://")
	if !ok {
		rest, ok = cutPrefixFold(u, "http://")
	}
	if !ok {
		return "must be an absolute http or https URL"
	}
	for _, r := range u {
		if r <= ' ' || r == 0x7f || r == utf8.RuneError {
			return "must not contain white space or control characters"
		}
	}
	authority, _, _ := strings.Cut(rest, "/")
	switch {
	case strings.Contains(authority, "@"):
		return "must not carry user info"
	case strings.Contains(u, "?"):
		return "must not have a query"
	case strings.Contains(u, "#"):
		return "must not have a fragment"
	}
	host := authority
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return "must have a host"
		}
		host = host[1:end]
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	if host == "" {
		return "must have a host"
	}
	return ""
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// checkConnection runs the broker's checks on a ChatConnection spec.
func checkConnection(s *akv1.ChatConnectionSpec) problems {
	var p problems
	switch {
	case s.Platform == "":
		p.add("spec.platform", "required")
	case s.Platform != akv1.PlatformSlack:
		p.add("spec.platform", quote(s.Platform)+" is not one of "+akv1.PlatformSlack)
	}
	if s.TokenSecretRef == nil {
		p.add("spec.tokenSecretRef", "required")
	} else {
		checkSecretRef(&p, "spec.tokenSecretRef", s.TokenSecretRef)
	}
	checkAllowed(&p, s.AllowedNamespaces)
	return p
}

// allows reports whether an object of namespace own, whose running
// allowedNamespaces is list, lets a Binding of namespace ns use it.
func allows(own string, list []string, ns string) bool {
	if own == ns {
		return true
	}
	for _, a := range list {
		if a == "*" || a == ns {
			return true
		}
	}
	return false
}
