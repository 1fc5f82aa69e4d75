// Package jsonscan validates JSON text and walks its values without
// decoding them: a value is handed out as the substring of the input that
// holds it (raw JSON), and only what a caller asks for is decoded or
// measured. It is built for lines of up to hundreds of KB made mostly of
// long escaped strings, which it scans eight bytes at a time.
//
// Validation (Valid, Scanner.Scan, Scanner.Object, Scanner.Value, Array)
// accepts exactly what encoding/json's Valid accepts; Skim checks structure
// only. The walkers that follow a validation (EachField, EachElem, Field)
// trust their input to be valid JSON.
//
// Functions that take s and i read the value at s[i], where s is the whole
// text being validated and depth is how deeply that value is nested (0 at
// the top, as a walk hands it on). Nesting is bounded as encoding/json
// bounds it, so that hostile input cannot exhaust the stack.
package jsonscan
