package report

// indentJSON appends to dst the compact JSON src (as encoding/json marshals
// it: no white space outside strings) indented as json.Indent(dst, src,
// prefix, indent) would indent it (FuzzIndentJSON holds it to that).
// json.Indent runs its full scanner over every byte, which made indenting
// cost more than marshalling in replay's JSON report; knowing the input is
// compact and valid, this copies strings whole and looks only at the
// punctuation between them.
func indentJSON(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	opened := false // a container just opened: indent unless it closes at once
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if opened && c != '}' && c != ']' {
			opened = false
			depth++
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(src)-1)
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			opened = true
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if opened {
				opened = false
			} else {
				depth--
				newline()
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
