// Loads a pcplab Chrome JSON trace (`pcplab-cli export FILE --format perfetto`) with an independent reader,
// Chrome DevTools' own trace engine (npm @paulirish/trace_engine), and checks that every complete event ("X")
// of the file lands on a thread that reader built: a process per node, a thread per CPU and per zone->lock.
// ui.perfetto.dev itself cannot run without a network; this is the same JSON format read by its other home.
import fs from 'node:fs';
import path from 'node:path';

const engine = process.env.TRACE_ENGINE_DIR;
const Trace = await import(path.join(engine, 'node_modules/@paulirish/trace_engine/models/trace/trace.js'));
globalThis.DOMRect ??= class
{
    constructor(x = 0, y = 0, w = 0, h = 0)
    {
        Object.assign(this, {x, y, width : w, height : h, top : y, left : x, right : x + w, bottom : y + h});
    }
};

const file = process.argv[2];
const json = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = json.traceEvents ?? json;
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const data = model.parsedTrace().data;

const byPhase = {};
for (const e of events) byPhase[e.ph] = (byPhase[e.ph] ?? 0) + 1;
let threads = 0, slices = 0;
const lines = [];
for (const [pid, p] of data.Renderer.processes)
    for (const [tid, t] of p.threads) {
        threads++;
        slices += t.entries.length;
        lines.push(`  ${data.Meta.processNames.get(pid)?.args?.name ?? pid} / ${t.name}: ${t.entries.length} slices`);
    }
console.log(`${file}: ${events.length} events (${JSON.stringify(byPhase)})`);
console.log(`  bounds ${data.Meta.traceBounds.min} .. ${data.Meta.traceBounds.max} us; ` +
    `${data.Renderer.processes.size} processes, ${threads} threads, ${slices} slices`);
console.log(lines.join('\n'));
const complete = byPhase['X'] ?? 0;
if (!complete || slices !== complete) {
    console.error(`${file}: the reader built ${slices} slices from ${complete} complete events`);
    process.exit(1);
}
console.log('ok: every complete event is a slice on its thread');
