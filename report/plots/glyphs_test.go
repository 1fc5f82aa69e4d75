package plots

import (
	"bytes"
	"image/png"
	"testing"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/recorder"
)

// inkBands returns the bands of consecutive rows of a PNG that hold a
// pixel that is not white, as [first, last] row pairs, top down.
func inkBands(t *testing.T, b []byte) [][2]int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	var bands [][2]int
	in := false
	for y := r.Min.Y; y < r.Max.Y; y++ {
		ink := false
		for x := r.Min.X; x < r.Max.X && !ink; x++ {
			c, _, _, _ := img.At(x, y).RGBA()
			ink = c < 0xf000
		}
		switch {
		case ink && !in:
			bands = append(bands, [2]int{y, y})
		case ink:
			bands[len(bands)-1][1] = y
		}
		in = ink
	}
	return bands
}

// TestPNGShowsMissingGlyphs: Liberation Sans has no CJK glyph, and the
// PNG rasteriser drew nothing for them, so a title of CJK characters left
// a blank image. They show as the marker now, and a legend line under the
// title says what the marker means; a title the font can draw gets no such
// line.
func TestPNGShowsMissingGlyphs(t *testing.T) {
	f := &Figure{Title: "日本語", Width: 2 * vg.Inch, Height: vg.Inch}
	if bands := inkBands(t, render(t, f, "png")); len(bands) != 2 {
		t.Errorf("%q: ink in rows %v, want two bands (the title's marks, the note)", f.Title, bands)
	}
	if len(f.Legend) != 0 {
		t.Errorf("Write added %d legend entries to the caller's figure", len(f.Legend))
	}
	f = &Figure{Title: "Ωméga — Жж ≤ …", Width: 2 * vg.Inch, Height: vg.Inch}
	if bands := inkBands(t, render(t, f, "png")); len(bands) != 1 {
		t.Errorf("%q: ink in rows %v, want one band (the title)", f.Title, bands)
	}
}

// recording is a canvas that records what it is asked to draw.
type recording struct{ *recorder.Canvas }

func (recording) Size() (vg.Length, vg.Length) { return vg.Inch, vg.Inch }

// TestGlyphCanvas: each character the face lacks is drawn as the marker,
// centred in the room the face's widths give it, and the text after it
// where the layout measured it.
func TestGlyphCanvas(t *testing.T) {
	face := font.DefaultCache.Lookup(fontSans, vg.Points(10))
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
		gc := &glyphCanvas{CanvasSizer: rec}
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
		if gc.missing != c.missing {
			t.Errorf("%q: missing %v, want %v", c.text, gc.missing, c.missing)
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
