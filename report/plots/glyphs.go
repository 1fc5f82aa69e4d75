package plots

import (
	"image"
	"slices"
	"unicode/utf8"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The plots' font, Liberation Sans, has Latin, Greek and Cyrillic glyphs
// but none for Chinese, Japanese, Korean, Arabic or Indic scripts, and the
// PNG rasteriser draws nothing for a character the font lacks: a file
// named in Chinese lost its name in a label, silently. No Go module
// packages a font that covers them, and embedding one (several MB) for
// file names is not worth it (docs/plots.md). So a PNG shows such a
// character as missingMark, centred in the room the layout gave it (the
// font's .notdef advance, what text widths count it as), and the figure's
// legend says what the mark means. SVG keeps the characters (the viewer's
// fonts draw them); PDF prints "?" (pdfCanvas).
const missingMark = "□"

// missingNote is the legend entry that explains missingMark.
const missingNote = "a character the font cannot draw"

// hasGlyph reports whether the face has a glyph for r.
func hasGlyph(f font.Face, buf *sfnt.Buffer, r rune) bool {
	i, err := f.Face.GlyphIndex(buf, r)
	return err == nil && i != 0
}

// glyphCanvas draws text with missingMark for each character the font
// lacks, and records whether it drew one.
type glyphCanvas struct {
	vg.CanvasSizer
	missing bool
}

func (c *glyphCanvas) FillString(f font.Face, pt vg.Point, s string) {
	var buf sfnt.Buffer
	x, start := pt.X, 0
	for i, r := range s {
		if hasGlyph(f, &buf, r) {
			continue
		}
		c.missing = true
		if seg := s[start:i]; seg != "" {
			c.CanvasSizer.FillString(f, vg.Point{X: x, Y: pt.Y}, seg)
			x += f.Width(seg)
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		slot := f.Width(s[i : i+n])
		c.CanvasSizer.FillString(f, vg.Point{X: x + (slot-f.Width(missingMark))/2, Y: pt.Y}, missingMark)
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

// drawPNG draws f on an image of wd × ht at dpi, with missingMark for the
// characters the font lacks; when there were any, it draws the figure
// again with a legend entry saying so (the common case draws once).
func drawPNG(f *Figure, wd, ht vg.Length, dpi int) image.Image {
	draw1 := func(f *Figure) (image.Image, bool) {
		img := vgimg.NewWith(vgimg.UseWH(wd, ht), vgimg.UseDPI(dpi))
		c := &glyphCanvas{CanvasSizer: img}
		f.Draw(draw.New(c))
		return img.Image(), c.missing
	}
	img, missing := draw1(f)
	if !missing {
		return img
	}
	g := *f
	g.Legend = append(slices.Clip(f.Legend), LegendEntry{Text: missingNote, Thumbs: []plot.Thumbnailer{markThumb{}}})
	img, _ = draw1(&g)
	return img
}

// markThumb is missingMark as a legend thumbnail.
type markThumb struct{}

func (markThumb) Thumbnail(c *draw.Canvas) {
	sty := textStyle(fontSans, legendSize, colorMuted)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), missingMark)
}
