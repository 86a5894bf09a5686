package cli_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"strings"
)

// schema is a JSON Schema draft-04 validator for the keywords the
// official SARIF 2.1.0 schema (testdata/sarif-schema-2.1.0.json) uses.
// The root module carries no JSON Schema library, and a validator this
// small is easier to trust than a vendored one; a keyword the schema
// uses and this does not know fails validation loudly.
type schema struct {
	root map[string]any
}

var known = map[string]bool{
	"$ref": true, "$schema": true, "additionalProperties": true, "anyOf": true, "default": true,
	"definitions": true, "description": true, "enum": true, "format": true, "id": true,
	"items": true, "maximum": true, "minItems": true, "minimum": true, "oneOf": true,
	"pattern": true, "properties": true, "required": true, "title": true, "type": true,
	"uniqueItems": true,
}

func (s *schema) validate(v any) []string {
	var errs []string
	s.check(s.root, v, "$", &errs)
	return errs
}

func (s *schema) check(sch map[string]any, v any, at string, errs *[]string) {
	fail := func(format string, args ...any) {
		*errs = append(*errs, at+": "+fmt.Sprintf(format, args...))
	}
	for k := range sch {
		if !known[k] {
			fail("schema keyword %q is not supported by this validator", k)
		}
	}
	if ref, ok := sch["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/definitions/")
		def, _ := s.root["definitions"].(map[string]any)[name].(map[string]any)
		if !ok || def == nil {
			fail("unresolved $ref %q", ref)
			return
		}
		s.check(def, v, at, errs)
		return
	}
	if t, ok := sch["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, e := range t {
				types = append(types, e.(string))
			}
		}
		match := false
		for _, t := range types {
			match = match || hasType(v, t)
		}
		if !match {
			fail("got %T, want type %v", v, types)
			return
		}
	}
	if enum, ok := sch["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || reflect.DeepEqual(e, v)
		}
		if !found {
			fail("%v not in enum %v", v, enum)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		alts, ok := sch[kw].([]any)
		if !ok {
			continue
		}
		n := 0
		for _, a := range alts {
			var sub []string
			s.check(a.(map[string]any), v, at, &sub)
			if len(sub) == 0 {
				n++
			}
		}
		if n == 0 || (kw == "oneOf" && n > 1) {
			fail("%s: %d of %d alternatives match", kw, n, len(alts))
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		for _, r := range asSlice(sch["required"]) {
			if _, ok := v[r.(string)]; !ok {
				fail("missing required property %q", r)
			}
		}
		for k, pv := range v {
			if ps, ok := props[k].(map[string]any); ok {
				s.check(ps, pv, at+"."+k, errs)
				continue
			}
			switch ap := sch["additionalProperties"].(type) {
			case bool:
				if !ap {
					fail("property %q is not allowed", k)
				}
			case map[string]any:
				s.check(ap, pv, at+"."+k, errs)
			}
		}
	case []any:
		if m, ok := sch["minItems"].(float64); ok && float64(len(v)) < m {
			fail("%d items, want at least %v", len(v), m)
		}
		if u, _ := sch["uniqueItems"].(bool); u {
			for i := range v {
				for j := i + 1; j < len(v); j++ {
					if reflect.DeepEqual(v[i], v[j]) {
						fail("items %d and %d are equal", i, j)
					}
				}
			}
		}
		if is, ok := sch["items"].(map[string]any); ok {
			for i, e := range v {
				s.check(is, e, fmt.Sprintf("%s[%d]", at, i), errs)
			}
		}
	case float64:
		if m, ok := sch["minimum"].(float64); ok && v < m {
			fail("%v < minimum %v", v, m)
		}
		if m, ok := sch["maximum"].(float64); ok && v > m {
			fail("%v > maximum %v", v, m)
		}
	case string:
		if p, ok := sch["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			fail("%q does not match %q", v, p)
		}
		switch sch["format"] {
		case "uri":
			if u, err := url.Parse(v); err != nil || !u.IsAbs() {
				fail("%q is not an absolute URI", v)
			}
		case "uri-reference":
			if _, err := url.Parse(v); err != nil {
				fail("%q is not a URI reference", v)
			}
		}
	}
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	}
	return false
}

func loadSchema(data []byte) (*schema, error) {
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	return &schema{root: root}, nil
}
