package report

// PolicyList is what `ctxlab policies` prints: every registered policy
// with its documentation, source and parameters. The command fills it from
// the policies registry (report does not import policies).
type PolicyList struct {
	Schema   string       `json:"schema"`
	Version  int          `json:"version"`
	Policies []PolicyInfo `json:"policies"`
}

// PolicyInfo describes one policy.
type PolicyInfo struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Source string      `json:"source"`
	Params []ParamInfo `json:"params"`
}

// ParamInfo describes one parameter of a policy.
type ParamInfo struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Range   string `json:"range"` // the values it takes
	Doc     string `json:"doc"`
}

// NewPolicyList wraps the policies in a versioned document.
func NewPolicyList(ps []PolicyInfo) *PolicyList {
	if ps == nil {
		ps = []PolicyInfo{}
	}
	for i := range ps {
		if ps[i].Params == nil {
			ps[i].Params = []ParamInfo{}
		}
	}
	return &PolicyList{Schema: SchemaPolicies, Version: SchemaVersion, Policies: ps}
}
