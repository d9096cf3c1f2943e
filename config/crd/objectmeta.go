package crd

// objectMeta is the schema of metadata as the API server's field manager
// sees it on a custom resource: the fields whose merge semantics matter
// to a writer are typed as in ObjectMeta (finalizers a set, owner
// references a list keyed by uid, labels and annotations string maps,
// managedFields atomic); the remaining fields are kept as they come.
// The CRD files declare metadata as a bare object because the server
// supplies this part itself.
func objectMeta() map[string]any {
	str := map[string]any{"type": "string"}
	strMap := map[string]any{"type": "object", "additionalProperties": str}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":            str,
			"generateName":    str,
			"namespace":       str,
			"uid":             str,
			"resourceVersion": str,
			"generation":      map[string]any{"type": "integer", "format": "int64"},
			"labels":          strMap,
			"annotations":     strMap,
			"finalizers": map[string]any{
				"type":                   "array",
				"items":                  str,
				"x-kubernetes-list-type": "set",
			},
			"ownerReferences": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"apiVersion":         str,
						"kind":               str,
						"name":               str,
						"uid":                str,
						"controller":         map[string]any{"type": "boolean"},
						"blockOwnerDeletion": map[string]any{"type": "boolean"},
					},
					"required": []any{"apiVersion", "kind", "name", "uid"},
				},
				"x-kubernetes-list-type":     "map",
				"x-kubernetes-list-map-keys": []any{"uid"},
			},
			"managedFields": map[string]any{
				"type":                   "array",
				"items":                  map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true},
				"x-kubernetes-list-type": "atomic",
			},
		},
		"x-kubernetes-preserve-unknown-fields": true,
	}
}
