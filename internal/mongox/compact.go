package mongox

import (
	"encoding/json"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// CompactBody reads into body the JSON text s of a compact document b
// (one that keeps the fields no query reads as one text, since FerretDB
// v1 pays for every field of every document). ok is false for a document
// stored field by field, which has no s.
func CompactBody(b []byte, body any) (ok bool, err error) {
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
