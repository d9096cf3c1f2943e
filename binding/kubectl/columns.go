package kubectl

// Column is one additionalPrinterColumns entry of the Binding CRD, with
// the fields of apiextensions/v1 CustomResourceColumnDefinition that the
// Binding uses (the library does not depend on apiextensions).
type Column struct {
	// Name is the column header; kubectl prints it in upper case.
	Name string `json:"name"`
	// Type is the OpenAPI type kubectl formats the cell as.
	Type string `json:"type"`
	// JSONPath selects the cell's value from the object.
	JSONPath string `json:"jsonPath"`
	// Description is the column's help text.
	Description string `json:"description,omitempty"`
	// Priority 0 columns show in the default view.
	Priority int32 `json:"priority,omitempty"`
}

// PrinterColumns returns the Binding CRD's printer columns, which make
// kubectl print READY, REASON, CHANNEL and AGE after the namespace and
// name it prints itself. The slice is new on each call.
func PrinterColumns() []Column {
	return []Column{
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		{Name: "Reason", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].reason`},
		{Name: "Channel", Type: "string", JSONPath: `.spec.chat.channel`},
		{Name: "Age", Type: "date", JSONPath: `.metadata.creationTimestamp`},
	}
}
