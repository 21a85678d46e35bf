// Preloaded by the benchmark (node --require) into the measured process: reports its peak RSS on exit.
process.on('exit', () => {
  process.stderr.write(`\nbench-peak-rss-kib ${process.resourceUsage().maxRSS}\n`);
});
