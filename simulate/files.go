package simulate

import (
	"github.com/ctxlab/ctxlab/replay"
	"github.com/ctxlab/ctxlab/simulate/filestate"
)

// The files a session touched are package filestate's; an Item and a
// Trace carry its values under these names.
type (
	FileSize  = filestate.Size
	FileTouch = filestate.Touch
	fileSizes = filestate.Sizes
)

// wholeText reports whether a tool's result holds the whole file
// (filestate.Whole).
func wholeText(t *replay.ToolCall) bool { return filestate.Whole(t) }

// agentFiles returns the files the session's sub-agents touched
// (filestate.AgentTouches).
func agentFiles(s *replay.Session) []FileTouch { return filestate.AgentTouches(s) }
