/**
 * Questions on the terminal. Prompts are written to standard error, so standard output holds only
 * a command's output. On a terminal a masked answer (a password, a token) is read in raw mode and
 * never echoed; without a terminal (a pipe, a test) answers are read a line at a time from
 * standard input, and the end of input answers nothing (`undefined`).
 */
import { createInterface } from "node:readline"
import { CliError } from "./Errors.js"

const stdin = process.stdin
const isTerminal = () => stdin.isTTY === true

/** Lines of a non-terminal standard input, read as asked. */
let buffered = ""
let ended = false
let waiting: (() => void) | undefined
let listening = false

const listen = () => {
  if (listening) return
  listening = true
  stdin.setEncoding("utf8")
  stdin.on("data", (d: string) => {
    buffered += d
    waiting?.()
  })
  stdin.on("end", () => {
    ended = true
    waiting?.()
  })
}

const nextLine = async (): Promise<string | undefined> => {
  listen()
  stdin.resume()
  try {
    for (;;) {
      const i = buffered.indexOf("\n")
      if (i >= 0) {
        const line = buffered.slice(0, i).replace(/\r$/, "")
        buffered = buffered.slice(i + 1)
        return line
      }
      if (ended) {
        if (buffered === "") return undefined
        const line = buffered
        buffered = ""
        return line
      }
      await new Promise<void>((resolve) => (waiting = resolve))
      waiting = undefined
    }
  } finally {
    stdin.pause()
  }
}

const askVisible = (question: string): Promise<string | undefined> =>
  new Promise((resolve) => {
    const rl = createInterface({ input: stdin, output: process.stderr, terminal: true })
    let answered = false
    rl.question(question, (answer) => {
      answered = true
      rl.close()
      resolve(answer)
    })
    rl.on("close", () => {
      if (!answered) resolve(undefined)
    })
    rl.on("SIGINT", () => {
      rl.close()
      process.stderr.write("\n")
      process.exit(130)
    })
  })

const askMasked = (question: string): Promise<string | undefined> =>
  new Promise((resolve) => {
    process.stderr.write(question)
    stdin.setRawMode(true)
    stdin.setEncoding("utf8")
    stdin.resume()
    let answer = ""
    const done = (value: string | undefined) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.removeListener("data", onData)
      process.stderr.write("\n")
      resolve(value)
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return done(answer)
        if (ch === "\u0003") {
          done(undefined)
          process.exit(130)
        }
        if (ch === "\u0004") return done(answer === "" ? undefined : answer)
        if (ch === "\u007f" || ch === "\b") answer = answer.slice(0, -1)
        else if (ch >= " ") answer += ch
      }
    }
    stdin.on("data", onData)
  })

/** Asks `question` (masked: the answer is not shown); `undefined` at the end of input. */
export const ask = async (
  question: string,
  options: { readonly masked?: boolean } = {}
): Promise<string | undefined> => {
  if (isTerminal()) return options.masked === true ? askMasked(question) : askVisible(question)
  process.stderr.write(question)
  const line = await nextLine()
  process.stderr.write("\n")
  return line
}

/** Asks until an answer is not empty; the end of input fails with `what` to pass as a flag. */
export const askRequired = async (
  question: string,
  flag: string,
  options: { readonly masked?: boolean } = {}
): Promise<string> => {
  for (;;) {
    const answer = await ask(question, options)
    if (answer === undefined) throw new CliError(`No answer to "${question.trim()}": pass ${flag}.`, 2)
    if (answer.trim() !== "") return options.masked === true ? answer : answer.trim()
  }
}

/** A yes/no question; `yes` (the `--yes` flag) answers it. The end of input, or anything but yes, is no. */
export const confirm = async (question: string, yes: boolean): Promise<boolean> => {
  if (yes) return true
  const answer = await ask(`${question} (yes/no) `)
  return answer !== undefined && /^y(es)?$/i.test(answer.trim())
}
