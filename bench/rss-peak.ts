/** This process's largest resident memory from now until `stop()`, which returns it in bytes (sampled every 20 ms). */
export function watchRssPeak(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  return {
    stop() {
      clearInterval(sampler);
      return peak;
    },
  };
}
