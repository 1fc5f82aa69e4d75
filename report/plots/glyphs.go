package plots

import (
	"image"
	"slices"

	"github.com/ctxlab/ctxlab/report/plots/canvas"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// missingNote is the legend entry that explains canvas.MissingMark: a
// PNG draws it for each character the font lacks.
const missingNote = "a character the font cannot draw"

// drawPNG draws f on an image of wd × ht at dpi, with canvas.MissingMark for the
// characters the font lacks; when there were any, it draws the figure
// again with a legend entry saying so (the common case draws once).
func drawPNG(f *Figure, wd, ht vg.Length, dpi int) image.Image {
	draw1 := func(f *Figure) (image.Image, bool) {
		img := vgimg.NewWith(vgimg.UseWH(wd, ht), vgimg.UseDPI(dpi))
		c := &canvas.Glyphs{CanvasSizer: img}
		f.Draw(draw.New(c))
		return img.Image(), c.Missing
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

// markThumb is canvas.MissingMark as a legend thumbnail.
type markThumb struct{}

func (markThumb) Thumbnail(c *draw.Canvas) {
	sty := textStyle(fontSans, legendSize, colorMuted)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), canvas.MissingMark)
}
