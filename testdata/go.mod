module locklint.test

go 1.26.0

require (
	github.com/bsm/redislock v0.9.4
	github.com/garyburd/redigo v0.0.0-20150301180006-535138d7bcd7
	github.com/go-redis/redis v6.15.9+incompatible
	github.com/go-redis/redis/v7 v7.4.1
	github.com/go-redis/redis/v8 v8.11.5
	github.com/go-redsync/redsync/v4 v4.13.0
	github.com/gogf/gf/v2 v2.9.0
	github.com/gomodule/redigo v1.9.3
	github.com/google/uuid v1.6.0
	github.com/petermattis/goid v0.0.0-20260113132338-7c7de50cc741
	github.com/redis/go-redis/v9 v9.23.0
	github.com/redis/rueidis v1.0.79
	github.com/satori/go.uuid v1.2.0
	github.com/sirupsen/logrus v1.9.3
	github.com/valkey-io/valkey-go v1.0.80
	github.com/zeromicro/go-zero v1.10.3
)

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cenkalti/backoff/v5 v5.0.3 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dgryski/go-rendezvous v0.0.0-20200823014737-9f7001d12a5f // indirect
	github.com/emirpasic/gods v1.18.1 // indirect
	github.com/fatih/color v1.18.0 // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/go-logr/stdr v1.2.2 // indirect
	github.com/grpc-ecosystem/grpc-gateway/v2 v2.27.7 // indirect
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/mattn/go-colorable v0.1.13 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/openzipkin/zipkin-go v0.4.3 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	github.com/prometheus/client_golang v1.23.2 // indirect
	github.com/prometheus/client_model v0.6.2 // indirect
	github.com/prometheus/common v0.66.1 // indirect
	github.com/prometheus/procfs v0.16.1 // indirect
	github.com/spaolacci/murmur3 v1.1.0 // indirect
	github.com/titanous/json5 v1.0.0 // indirect
	go.opentelemetry.io/auto/sdk v1.2.1 // indirect
	go.opentelemetry.io/otel v1.40.0 // indirect
	go.opentelemetry.io/otel/exporters/otlp/otlptrace v1.40.0 // indirect
	go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc v1.40.0 // indirect
	go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp v1.40.0 // indirect
	go.opentelemetry.io/otel/exporters/stdout/stdouttrace v1.40.0 // indirect
	go.opentelemetry.io/otel/exporters/zipkin v1.40.0 // indirect
	go.opentelemetry.io/otel/metric v1.40.0 // indirect
	go.opentelemetry.io/otel/sdk v1.40.0 // indirect
	go.opentelemetry.io/otel/trace v1.40.0 // indirect
	go.opentelemetry.io/proto/otlp v1.9.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	go.uber.org/automaxprocs v1.6.0 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20260128011058-8636f8732409 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260128011058-8636f8732409 // indirect
	google.golang.org/grpc v1.80.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)

// The lock library and its adapters, so that code calling them
// (fix.Release, lock.Release(ctx, fixredigo.Conn(conn), ...)) type-checks;
// the fix-verification test points these at the copy's.
require (
	github.com/locklint/locklint/analyzer/fix v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixgoredis8 v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixredigo v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixrueidis v0.1.0
	github.com/locklint/locklint/analyzer/fix/fixvalkey v0.1.0
	github.com/locklint/locklint/analyzer/fix/lock v0.1.0
)

replace github.com/locklint/locklint/analyzer/fix => ../analyzer/fix

replace github.com/locklint/locklint/analyzer/fix/lock => ../analyzer/fix/lock

replace github.com/locklint/locklint/analyzer/fix/fixgoredis8 => ../analyzer/fix/fixgoredis8

replace github.com/locklint/locklint/analyzer/fix/fixredigo => ../analyzer/fix/fixredigo

replace github.com/locklint/locklint/analyzer/fix/fixrueidis => ../analyzer/fix/fixrueidis

replace github.com/locklint/locklint/analyzer/fix/fixvalkey => ../analyzer/fix/fixvalkey
