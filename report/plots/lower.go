package plots

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A figure that rests on Claude Code 2.1.9–2.1.41's placeholder output
// counts (what those versions wrote in the transcript's usage) is a lower
// bound: the plots mark it as the tables do, ≥ before each such number in
// a legend, a note or a cell and before its axis's label, and a legend
// entry that says why.
const lowerBoundNote = "a lower bound: output counts are Claude Code 2.1.9–2.1.41 placeholders"

// lowerText is s marked ≥ when lower.
func lowerText(s string, lower bool) string {
	if lower {
		return "≥" + s
	}
	return s
}

// lowerAxis is an axis label marked ≥ when its values are lower bounds:
// "≥ cumulative cost (USD)". Two characters: a vertical axis has no room
// for more, and the legend says what ≥ means.
func lowerAxis(label string, lower bool) string {
	if lower {
		return "≥ " + label
	}
	return label
}

// lowerHeight is the height of a figure of the default height that has
// one more legend row when lower (lowerEntry's), so that its panel keeps
// its size.
func lowerHeight(lower bool) vg.Length {
	if lower {
		return DefaultHeight + legendRowHeight()
	}
	return 0 // the default
}

// lowerEntry is the legend entry that explains ≥; none when nothing is a
// lower bound.
func lowerEntry(lower bool) []LegendEntry {
	if !lower {
		return nil
	}
	return []LegendEntry{{Text: lowerBoundNote, Thumbs: []plot.Thumbnailer{textThumb("≥")}}}
}

// legendRowHeight is the height of one row of a legend (drawLegend).
func legendRowHeight() vg.Length {
	return textStyle(fontSans, legendSize, colorMuted).Height("Mg") + vg.Points(3)
}

// textThumb is a legend thumbnail that is a symbol.
type textThumb string

func (s textThumb) Thumbnail(c *draw.Canvas) {
	sty := textStyle(fontSans, legendSize, colorMuted)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), string(s))
}
