package canvas

import (
	"bytes"
	"testing"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	_ "gonum.org/v1/plot" // registers the Liberation fonts in font.DefaultCache
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/recorder"
)

// recording is a canvas that records what it is asked to draw.
type recording struct{ *recorder.Canvas }

func (recording) Size() (vg.Length, vg.Length) { return vg.Inch, vg.Inch }

// TestGlyphCanvas: each character the face lacks is drawn as the marker,
// centred in the room the face's widths give it, and the text after it
// where the layout measured it.
func TestGlyphCanvas(t *testing.T) {
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans"}, vg.Points(10))
	w := face.Width
	for _, c := range []struct {
		text    string
		want    []string
		xs      []vg.Length
		missing bool
	}{
		// Latin, Greek, Cyrillic and every symbol ctxlab writes itself
		// (docs/plots.md) are drawn as they are.
		{"abc éß Ωα Жж —…−≤≥→±·×Δ–≠\u202f", []string{"abc éß Ωα Жж —…−≤≥→±·×Δ–≠\u202f"}, []vg.Length{0}, false},
		{"a日b", []string{"a", "□", "b"}, []vg.Length{0, w("a") + (w("日")-w("□"))/2, w("a日")}, true},
		{"日本", []string{"□", "□"}, []vg.Length{(w("日") - w("□")) / 2, w("日") + (w("本")-w("□"))/2}, true},
		// An invalid byte is U+FFFD, which the face lacks too.
		{"a\xffb", []string{"a", "□", "b"}, []vg.Length{0, w("a") + (w("\xff")-w("□"))/2, w("a\xff")}, true},
		{"x.md", []string{"x.md"}, []vg.Length{0}, false},
	} {
		rec := recording{&recorder.Canvas{}}
		gc := &Glyphs{CanvasSizer: rec}
		at := vg.Point{X: 10, Y: 5}
		gc.FillString(face, at, c.text)
		var got []string
		var xs []vg.Length
		for _, a := range rec.Actions {
			fs := a.(*recorder.FillString)
			got = append(got, fs.String)
			xs = append(xs, fs.Point.X-at.X)
			if fs.Point.Y != at.Y {
				t.Errorf("%q: %q drawn at y %v, want %v", c.text, fs.String, fs.Point.Y, at.Y)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%q drawn as %q, want %q", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] || !near(xs[i], c.xs[i]) {
				t.Errorf("%q: part %d %q at %v, want %q at %v", c.text, i, got[i], xs[i], c.want[i], c.xs[i])
			}
		}
		if gc.Missing != c.missing {
			t.Errorf("%q: missing %v, want %v", c.text, gc.Missing, c.missing)
		}
		// Every character drawn has a glyph.
		var buf sfnt.Buffer
		for _, s := range got {
			for _, r := range s {
				if !hasGlyph(face, &buf, r) {
					t.Errorf("%q: drew %q, which the face lacks", c.text, r)
				}
			}
		}
	}
}

func near(a, b vg.Length) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestWindows1252: text in the PDF fonts' code page, the symbols it
// lacks that ctxlab writes (a lower bound's ≥) spelled out, "?" for the
// rest; ASCII as it is.
func TestWindows1252(t *testing.T) {
	for in, want := range map[string]string{"a—b ≤ 中 ≥$1 −2% →": "a\x97b <= ? >=$1 -2% ->", "plain": "plain", "é": "\xe9", "": ""} {
		if got := windows1252(in); got != want {
			t.Errorf("windows1252(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPDF: a bold face is drawn regular (the one embedded font), the
// text in Windows-1252, and two documents drawn alike are the same bytes.
func TestPDF(t *testing.T) {
	draw := func() []byte {
		c := NewPDF(vg.Inch, vg.Inch)
		bold := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}, vg.Points(10))
		c.FillString(bold, vg.Point{X: 10, Y: 10}, "Titlé — x")
		var b bytes.Buffer
		if _, err := c.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b := draw(), draw()
	if !bytes.Equal(a, b) {
		t.Error("two PDFs drawn alike differ")
	}
	if bytes.Contains(a, []byte("Bold")) {
		t.Error("the PDF names a bold font")
	}
	if n := bytes.Count(a, []byte("/FontFile2 ")); n != 1 {
		t.Errorf("%d embedded font files, want 1", n)
	}
}
