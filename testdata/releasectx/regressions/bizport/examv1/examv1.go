// Package examv1 stands for the generated protocol buffer messages of an
// exam service.
package examv1

type SubmitExamRequest struct{ AssociationId int64 }

func (*SubmitExamRequest) Reset()         {}
func (*SubmitExamRequest) String() string { return "" }
func (*SubmitExamRequest) ProtoMessage()  {}

type SubmitExamResponse struct{ Score int64 }

func (*SubmitExamResponse) Reset()         {}
func (*SubmitExamResponse) String() string { return "" }
func (*SubmitExamResponse) ProtoMessage()  {}
