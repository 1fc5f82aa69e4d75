// Package canvas holds the workarounds for what gonum/plot's backends
// (v0.17) get wrong, as canvases that wrap theirs: a PNG that draws a
// mark for the characters the font lacks (Glyphs), and a PDF that draws
// text in the code page its fonts are embedded with and is the same from
// run to run (NewPDF). report/plots draws every figure through them; they
// know nothing of figures.
package canvas

import (
	"sync"
	"time"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

// The plots' font, Liberation Sans, has Latin, Greek and Cyrillic glyphs
// but none for Chinese, Japanese, Korean, Arabic or Indic scripts, and the
// PNG rasteriser draws nothing for a character the font lacks: a file
// named in Chinese lost its name in a label, silently. No Go module
// packages a font that covers them, and embedding one (several MB) for
// file names is not worth it (docs/plots.md). So a PNG shows such a
// character as MissingMark, centred in the room the layout gave it (the
// font's .notdef advance, what text widths count it as). SVG keeps the
// characters (the viewer's fonts draw them); PDF prints "?" (PDF).
const MissingMark = "□"

// hasGlyph reports whether the face has a glyph for r.
func hasGlyph(f font.Face, buf *sfnt.Buffer, r rune) bool {
	i, err := f.Face.GlyphIndex(buf, r)
	return err == nil && i != 0
}

// Glyphs draws text with MissingMark for each character the font lacks,
// and records whether it drew one (Missing).
type Glyphs struct {
	vg.CanvasSizer
	Missing bool
}

// FillString draws s, a MissingMark for each character f lacks.
func (c *Glyphs) FillString(f font.Face, pt vg.Point, s string) {
	var buf sfnt.Buffer
	x, start := pt.X, 0
	for i, r := range s {
		if hasGlyph(f, &buf, r) {
			continue
		}
		c.Missing = true
		if seg := s[start:i]; seg != "" {
			c.CanvasSizer.FillString(f, vg.Point{X: x, Y: pt.Y}, seg)
			x += f.Width(seg)
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		slot := f.Width(s[i : i+n])
		c.CanvasSizer.FillString(f, vg.Point{X: x + (slot-f.Width(MissingMark))/2, Y: pt.Y}, MissingMark)
		x += slot
		start = i + n
	}
	switch {
	case start == 0:
		c.CanvasSizer.FillString(f, pt, s)
	case start < len(s):
		c.CanvasSizer.FillString(f, vg.Point{X: x, Y: pt.Y}, s[start:])
	}
}

// pdfDefaults makes PDF output byte-identical from run to run: the PDF
// library stamps each document with the current time and writes its
// font and image catalogs in map order unless told otherwise. These are
// the library's process-wide defaults, set once before the first PDF.
var pdfDefaults sync.Once

func setPDFDefaults() {
	epoch := time.Unix(0, 0).UTC()
	fpdf.SetDefaultCreationDate(epoch)
	fpdf.SetDefaultModificationDate(epoch)
	fpdf.SetDefaultCatalogSort(true)
}

// PDF works around two limits of gonum/plot's PDF canvas (v0.17).
// It cannot draw a bold face: it registers each font under its full name
// with no style and selects a bold one with style "B", which the PDF
// library does not find, and it names every embedded font file alike, so
// a second face would be drawn with the first one's glyphs. Text is
// therefore drawn in the regular face: PDF titles are not bold. And it
// embeds fonts with the Windows-1252 code page but passes text on as
// UTF-8 bytes, so an em dash would print as three letters: text is
// converted here, and a character the code page lacks prints as "?".
type PDF struct{ *vgpdf.Canvas }

// NewPDF is a PDF canvas of w × h, the same bytes from run to run.
func NewPDF(w, h vg.Length) PDF {
	pdfDefaults.Do(setPDFDefaults)
	return PDF{vgpdf.New(w, h)}
}

// FillString draws s in f's regular face, in Windows-1252.
func (c PDF) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Weight != xfont.WeightNormal || f.Font.Style != xfont.StyleNormal {
		regular := f.Font
		regular.Weight, regular.Style = xfont.WeightNormal, xfont.StyleNormal
		f = font.DefaultCache.Lookup(regular, f.Font.Size)
	}
	c.Canvas.FillString(f, pt, windows1252(s))
}

// spelled are the symbols ctxlab writes that Windows-1252 lacks, spelled
// in characters it has: a lower bound's ≥ must not print as "?".
var spelled = map[rune]string{'≥': ">=", '≤': "<=", '−': "-", '→': "->"}

// windows1252 encodes s in the Windows-1252 code page, the symbols of
// spelled spelled out, "?" for the other characters it lacks.
func windows1252(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if c, ok := charmap.Windows1252.EncodeRune(r); ok {
			b = append(b, c)
		} else if sp, ok := spelled[r]; ok {
			b = append(b, sp...)
		} else {
			b = append(b, '?')
		}
	}
	return string(b)
}
