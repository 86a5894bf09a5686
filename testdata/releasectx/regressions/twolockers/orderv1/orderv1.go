// Package orderv1 stands for generated protocol buffer messages.
package orderv1

type UpdateOrderStatusRequest struct{ OrderNumber, Status string }

func (*UpdateOrderStatusRequest) Reset()         {}
func (*UpdateOrderStatusRequest) String() string { return "" }
func (*UpdateOrderStatusRequest) ProtoMessage()  {}

type UpdateOrderStatusResponse struct{}
