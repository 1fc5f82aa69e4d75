package plots

import (
	"bytes"
	"image/png"
	"testing"

	"gonum.org/v1/plot/vg"
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
