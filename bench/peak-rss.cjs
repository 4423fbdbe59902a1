// Preloaded (node --require) into a process the CLI bench measures: at exit, its peak resident memory in
// KiB goes to the file named by NODESCOPE_BENCH_RSS_FILE, so the CLI and its baseline are measured alike.
const { writeFileSync } = require('node:fs');

process.on('exit', () => writeFileSync(process.env.NODESCOPE_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));
