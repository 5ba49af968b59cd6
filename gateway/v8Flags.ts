// V8 settings for a process that serves requests: imported first by the serving commands
// (cli/run.ts, cli/dev.ts), before any module that runs code.
//
// Allocation-site pretenuring off. V8 watches where objects are allocated, and once most objects
// of an allocation site have outlived a young-generation collection it allocates that site's
// objects straight into the old generation. The start-up migration (thousands of statements on one
// connection) and node-postgres's promise path both taught it that for the sites of a query's
// result; from then on every request's result object lived in the old generation, where a young
// collection cannot see it die, so the answer text it points to survived two young collections
// and was copied to the old generation too. Measured on the bench's 8.4 KB answers at 1,500
// req/s: 2.4 MB promoted per young collection, collections of 2-4 ms instead of 0.5-1, and
// old-generation collections on top; with pretenuring off, 40 KB promoted per collection and
// 9 % more requests a second (docs/performance.md "Node side").

import v8 from "node:v8";

v8.setFlagsFromString("--no-allocation-site-pretenuring");
