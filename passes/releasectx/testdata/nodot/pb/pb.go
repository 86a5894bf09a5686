// Package pb stands for the generated protocol buffer messages.
package pb

type DetailRequest struct{ ProductId int64 }

func (*DetailRequest) Reset()         {}
func (*DetailRequest) String() string { return "" }
func (*DetailRequest) ProtoMessage()  {}

type DetailReply struct{ Name string }

func (*DetailReply) Reset()         {}
func (*DetailReply) String() string { return "" }
func (*DetailReply) ProtoMessage()  {}
