package mongox

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestCompactBody: a document's JSON text is read, one stored field by
// field has none, and an s that is not a string is an error.
func TestCompactBody(t *testing.T) {
	doc := func(d bson.D) []byte {
		b, err := bson.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var body struct{ N int }
	if ok, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "s", Value: `{"N":7}`}}), &body); !ok || err != nil || body.N != 7 {
		t.Fatalf("compact: %v, %v, %+v", ok, err, body)
	}
	if ok, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "n", Value: 7}}), &body); ok || err != nil {
		t.Fatalf("field by field: %v, %v", ok, err)
	}
	if _, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "s", Value: 7}}), &body); err == nil {
		t.Fatal("an s that is a number read")
	}
	if _, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "s", Value: `{"N":`}}), &body); err == nil {
		t.Fatal("a broken text read")
	}
}
