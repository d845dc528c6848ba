/** Reading Prometheus's text exposition format in the metrics tests. */

export interface Sample {
  readonly name: string
  readonly labels: Record<string, string>
  readonly value: number
}

/** The samples of an exposition text. */
export const parseExposition = (text: string): Array<Sample> =>
  text.split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((line) => {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (m === null) throw new Error(`not a sample: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!
    return { name: m[1]!, labels, value: Number(m[3]) }
  })
