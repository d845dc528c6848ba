/**
 * The tracer of `--trace` (docs/tracing.md): Effect's spans, through Effect's own OpenTelemetry
 * integration (@effect/opentelemetry), to an OpenTelemetry SDK tracer provider that batches them
 * (the `OTEL_BSP_*` variables) and exports them over OTLP/HTTP as JSON to the configured endpoint
 * (with the `OTEL_EXPORTER_OTLP_*` headers, timeout and compression, as the SDK reads them). Only
 * the server loads this module, and only when tracing is on (Server.ts imports it on demand): off,
 * none of it is evaluated.
 */
import * as Resource from "@effect/opentelemetry/Resource"
import * as Tracer from "@effect/opentelemetry/Tracer"
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http"
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources"
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { Effect, Layer } from "effect"
import { hostname } from "node:os"
import type { TraceExport } from "./Config.js"

/** How long the shutdown waits for the last spans to be exported. */
const FLUSH_TIMEOUT = "3 seconds"

/**
 * A layer setting the tracer of every fiber built over it: spans exported to `trace.endpoint`, as
 * the service `trace.serviceName` of `version`, this process its instance. Its release exports
 * what is still batched (bounded by {@link FLUSH_TIMEOUT}).
 */
export const tracingLayer = (trace: TraceExport, version: string): Layer.Layer<never> => {
  // `OTEL_RESOURCE_ATTRIBUTES` first, the service's own attributes over them.
  const resource = detectResources({ detectors: [envDetector] }).merge(resourceFromAttributes({
    "service.name": trace.serviceName,
    "service.version": version,
    "service.instance.id": `${hostname()}-${process.pid}`
  }))
  const provider = Layer.scoped(
    Tracer.OtelTracerProvider,
    Effect.acquireRelease(
      Effect.sync(() =>
        new BasicTracerProvider({
          resource,
          spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: trace.endpoint }))]
        })
      ),
      (p) =>
        Effect.tryPromise(() => p.forceFlush().then(() => p.shutdown())).pipe(
          Effect.ignoreLogged,
          Effect.interruptible,
          Effect.timeoutOption(FLUSH_TIMEOUT)
        )
    )
  )
  return Tracer.layer.pipe(
    Layer.provide(provider),
    Layer.provide(Layer.succeed(Resource.Resource, resource))
  )
}
