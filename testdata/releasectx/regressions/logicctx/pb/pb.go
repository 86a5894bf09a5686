// Package pb stands for the generated protocol buffer messages of a
// stock service.
package pb

type DeductReq struct {
	Id     int64
	Amount int64
}

func (*DeductReq) Reset()         {}
func (*DeductReq) String() string { return "" }
func (*DeductReq) ProtoMessage()  {}

type Empty struct{}

func (*Empty) Reset()         {}
func (*Empty) String() string { return "" }
func (*Empty) ProtoMessage()  {}
