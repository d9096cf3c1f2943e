package redact

// Connection strings: the "Name=value;Name=value" form Azure Storage,
// Service Bus and Event Hubs clients print. Their secret fields are keys
// the key-value rule knows (AccountKey, SharedAccessKey) and one it cuts
// short (a SharedAccessSignature is a query string, its fields joined by
// '&'); the fields that make up the endpoint host (the account name, the
// endpoint suffix, a service endpoint without a scheme) are hidden as the
// host they are.

// connFields are the connection-string fields whose whole value is
// hidden, by lower-case name, with the placeholder each gets.
var connFields = [...]struct {
	name string
	k    kind
}{
	{"accountkey", kindSecret},
	{"sharedaccesskey", kindSecret},
	{"sharedaccesssignature", kindSecret},
	{"accountname", kindAddress},
	{"endpointsuffix", kindAddress},
	{"blobendpoint", kindAddress},
	{"queueendpoint", kindAddress},
	{"tableendpoint", kindAddress},
	{"fileendpoint", kindAddress},
}

// findConnectionStrings hides the value of each field of connFields
// written "Name=value", the name in any case and not the end of a longer
// key. The value ends where a bare secret value ends (see valueEnd),
// except that '&' is part of it: a signature is a query string.
func findConnectionStrings(s string, out []span) []span {
	for from := 0; ; {
		i := indexFrom(s, from, '=')
		if i < 0 {
			return out
		}
		from = i + 1
		if i == 0 || !connFieldEnd(s[i-1]) {
			continue
		}
		ks := i
		for ks > 0 && is(s[ks-1], cLetter) {
			ks--
		}
		if ks == i || (ks > 0 && is(s[ks-1], cKey)) {
			continue
		}
		k, ok := connField(s[ks:i])
		if !ok {
			continue
		}
		v := i + 1
		ve := connValueEnd(s, v)
		if ve > v {
			out = append(out, span{v, ve, k})
			from = ve
		}
	}
}

// connFieldEnd reports whether c can end a name of connFields: most
// keys before '=' are turned down on their last letter alone.
func connFieldEnd(c byte) bool {
	switch lowerASCII(c) {
	case 'y', 'e', 'x', 't':
		return true
	}
	return false
}

// The lengths of the shortest and longest names of connFields: most keys
// before '=' are turned down on their length alone.
const minConnField, maxConnField = len("accountkey"), len("sharedaccesssignature")

// connField looks a field name up in connFields, ignoring ASCII case.
func connField(name string) (kind, bool) {
	if len(name) < minConnField || len(name) > maxConnField {
		return 0, false
	}
	for _, f := range connFields {
		if len(name) == len(f.name) && hasPrefixFold(name, f.name) {
			return f.k, true
		}
	}
	return 0, false
}

// connValueEnd is valueEnd with '&' inside the value.
func connValueEnd(s string, v int) int {
	for j := v; ; {
		j = valueEnd(s, j)
		if j == len(s) || s[j] != '&' {
			return j
		}
		j++
	}
}
