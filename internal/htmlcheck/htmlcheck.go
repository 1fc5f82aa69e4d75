// Package htmlcheck checks the structure of ctxlab's HTML reports for the
// tests of the packages that write them: the document fetches nothing,
// its anchors are unique and every in-page link resolves, and the
// overview's rows and values can be read back.
package htmlcheck

import (
	"fmt"
	"html"
	"regexp"
	"strings"
)

var (
	attrRE = regexp.MustCompile(`\s(src|href|xlink:href|srcset|action|poster|data)\s*=\s*"([^"]*)"`)
	idRE   = regexp.MustCompile(`\sid="([^"]*)"`)
	rowRE  = regexp.MustCompile(`(?s)<tr>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<td([^>]*)>(.*?)</td>`)
	valRE  = regexp.MustCompile(`data-v="([^"]*)"`)
	hrefRE = regexp.MustCompile(`<a href="([^"]*)">`)
	tagRE  = regexp.MustCompile(`<[^>]*>`)
)

// SelfContained returns what in doc would make a browser fetch something:
// an attribute naming a resource that is not an in-page anchor or a data:
// URL, a stylesheet link, an @import or a url() of a file, or any http(s)
// URL at all. Nil when there is none.
func SelfContained(doc string) error {
	var bad []string
	for _, m := range attrRE.FindAllStringSubmatch(doc, -1) {
		v := html.UnescapeString(m[2])
		if !strings.HasPrefix(v, "#") && !strings.HasPrefix(v, "data:") {
			bad = append(bad, fmt.Sprintf("%s=%q", m[1], v))
		}
	}
	lower := strings.ToLower(doc)
	for _, s := range []string{"http://", "https://", "<link", "@import", "<iframe", "<embed", "<object"} {
		if strings.Contains(lower, s) {
			bad = append(bad, s)
		}
	}
	for _, m := range regexp.MustCompile(`url\(\s*['"]?([^)'"]*)`).FindAllStringSubmatch(lower, -1) {
		if !strings.HasPrefix(m[1], "#") && !strings.HasPrefix(m[1], "data:") {
			bad = append(bad, "url("+m[1]+")")
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("the document refers outside itself: %s", strings.Join(bad, ", "))
	}
	return nil
}

// Anchors checks that every id is unique and every in-page link ("#x")
// names one; it returns the ids in document order.
func Anchors(doc string) ([]string, error) {
	seen := map[string]bool{}
	var ids []string
	for _, m := range idRE.FindAllStringSubmatch(doc, -1) {
		id := html.UnescapeString(m[1])
		if seen[id] {
			return nil, fmt.Errorf("id %q is used twice", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	for _, m := range attrRE.FindAllStringSubmatch(doc, -1) {
		v := html.UnescapeString(m[2])
		if strings.HasPrefix(v, "#") && !seen[v[1:]] {
			return nil, fmt.Errorf("link %s leads nowhere", v)
		}
	}
	return ids, nil
}

// Cell is one cell of a table: its text (tags removed, entities
// decoded), its sort value (data-v) and its link.
type Cell struct {
	Text, Value, Href string
}

// Table returns the body and footer rows of the table in the element
// whose id is id ("overview-sessions"): the rows between its <tbody> and
// the end of its </table>.
func Table(doc, id string) (body, foot [][]Cell, err error) {
	start := strings.Index(doc, `id="`+id+`"`)
	if start < 0 {
		return nil, nil, fmt.Errorf("no element with id %q", id)
	}
	rest := doc[start:]
	end := strings.Index(rest, "</table>")
	if end < 0 {
		return nil, nil, fmt.Errorf("%s: no table", id)
	}
	rest = rest[:end]
	tb := strings.Index(rest, "<tbody>")
	if tb < 0 {
		return nil, nil, fmt.Errorf("%s: no <tbody>", id)
	}
	rest = rest[tb:]
	bodyPart, footPart, _ := strings.Cut(rest, "<tfoot>")
	return rows(bodyPart), rows(footPart), nil
}

func rows(s string) [][]Cell {
	var out [][]Cell
	for _, r := range rowRE.FindAllStringSubmatch(s, -1) {
		var row []Cell
		for _, c := range cellRE.FindAllStringSubmatch(r[1], -1) {
			cell := Cell{Text: html.UnescapeString(tagRE.ReplaceAllString(c[2], ""))}
			if v := valRE.FindStringSubmatch(c[1]); v != nil {
				cell.Value = html.UnescapeString(v[1])
			}
			if h := hrefRE.FindStringSubmatch(c[2]); h != nil {
				cell.Href = html.UnescapeString(h[1])
			}
			row = append(row, cell)
		}
		out = append(out, row)
	}
	return out
}
