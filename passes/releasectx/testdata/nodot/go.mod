module seckill

go 1.26.0
