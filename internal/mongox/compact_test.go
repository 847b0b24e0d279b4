package mongox

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// TestCompactBody: a document's top fields and JSON text are read, one
// stored field by field has no text (its fields all read), and an s that
// is not a string is an error.
func TestCompactBody(t *testing.T) {
	doc := func(d bson.D) []byte {
		b, err := bson.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var body struct{ N int }
	var top struct {
		ID string `bson:"_id"`
		N  int    `bson:"n"`
	}
	if ok, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "s", Value: `{"N":7}`}}), &top, &body); !ok || err != nil || body.N != 7 || top.ID != "a" {
		t.Fatalf("compact: %v, %v, %+v, %+v", ok, err, top, body)
	}
	if ok, err := CompactBody(doc(bson.D{{Key: "_id", Value: "b"}, {Key: "n", Value: 7}}), &top, &body); ok || err != nil || top.ID != "b" || top.N != 7 {
		t.Fatalf("field by field: %v, %v, %+v", ok, err, top)
	}
	if _, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "s", Value: 7}}), &top, &body); err == nil {
		t.Fatal("an s that is a number read")
	}
	if _, err := CompactBody(doc(bson.D{{Key: "_id", Value: "a"}, {Key: "s", Value: `{"N":`}}), &top, &body); err == nil {
		t.Fatal("a broken text read")
	}
	if _, err := CompactBody(doc(bson.D{{Key: "_id", Value: 5}}), &top, &body); err == nil {
		t.Fatal("an _id of the wrong type read")
	}
}
