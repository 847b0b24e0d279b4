package mongox

import (
	"encoding/json"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// CompactBody reads a document b that may be compact (one that keeps
// the fields no query reads as one JSON text s, since FerretDB v1 pays
// for every field of every document): its fields into top, then its text
// into body. ok is false for a document stored field by field, which has
// no s (top then holds all of it).
func CompactBody(b []byte, top, body any) (ok bool, err error) {
	if err := bson.Unmarshal(b, top); err != nil {
		return false, err
	}
	v, err := bson.Raw(b).LookupErr("s")
	if err != nil {
		return false, nil
	}
	text, isText := v.StringValueOK()
	if !isText {
		return false, fmt.Errorf("s is a %s, not a string", v.Type)
	}
	return true, json.Unmarshal([]byte(text), body)
}
