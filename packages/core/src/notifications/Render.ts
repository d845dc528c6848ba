/**
 * Rendering of notification templates: Handlebars fills a template's title, body and action
 * URLs from a message's payload; marked turns the markdown result into plain text (webhooks'
 * `title`/`body`, mail's text part, the inbox watch's `plaintext` format) or HTML (mail).
 */
import Handlebars from "handlebars"
import { Marked, type Token, type Tokens } from "marked"
import { once } from "../Lazily.js"
import type { TemplateAction, TemplateDefinition } from "./NotificationTemplate.js"

/** What a template sees. */
export interface RenderContext {
  readonly labels: Readonly<Record<string, string>>
  readonly data: Readonly<Record<string, unknown>>
  readonly user_name: string
  readonly user_username: string
  readonly user_email: string
  /** The deployment's access URL, without a trailing slash. */
  readonly base_url: string
}

/** A rendered notification, in markdown. */
export interface Rendered {
  readonly title: string
  readonly body: string
  readonly actions: ReadonlyArray<TemplateAction>
}

// One isolated environment: nothing an embedder registers on the global Handlebars reaches it.
const handlebars = once(() => Handlebars.create())
const compiled = new Map<string, HandlebarsTemplateDelegate<RenderContext>>()

/** Renders one template text; the output is markdown, so nothing is HTML-escaped. */
export const renderText = (template: string, context: RenderContext): string => {
  let fn = compiled.get(template)
  if (fn === undefined) {
    fn = handlebars().compile<RenderContext>(template, { noEscape: true, strict: false })
    compiled.set(template, fn)
  }
  return fn(context)
}

/** Whether `template` parses (a custom title or message may hold anything). */
export const templateError = (template: string): string | undefined => {
  try {
    handlebars().precompile(template)
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

/** Title, body and actions of `template` for `context`. */
export const renderTemplate = (template: TemplateDefinition, context: RenderContext): Rendered => ({
  title: renderText(template.title, context),
  body: renderText(template.body, context),
  actions: template.actions.map((a) => ({ label: renderText(a.label, context), url: renderText(a.url, context) }))
})

const inline = (tokens: ReadonlyArray<Token> | undefined): string =>
  (tokens ?? []).map((t): string => {
    switch (t.type) {
      case "link":
        return `${inline((t as Tokens.Link).tokens)} (${(t as Tokens.Link).href})`
      case "strong":
      case "em":
      case "del":
        return inline((t as Tokens.Strong).tokens)
      case "codespan":
        return (t as Tokens.Codespan).text
      case "br":
        return "\n"
      case "text": {
        const text = t as Tokens.Text
        return text.tokens !== undefined ? inline(text.tokens) : text.text
      }
      case "escape":
        return (t as Tokens.Escape).text
      default:
        return t.raw
    }
  }).join("")

const block = (t: Token): string => {
  switch (t.type) {
    case "paragraph":
    case "heading":
      return inline((t as Tokens.Paragraph).tokens)
    case "list":
      return (t as Tokens.List).items.map((item) => `- ${item.tokens.map(block).join("\n").trim()}`).join("\n")
    case "text": {
      const text = t as Tokens.Text
      return text.tokens !== undefined ? inline(text.tokens) : text.text
    }
    case "code":
      return (t as Tokens.Code).text
    case "space":
      return ""
    default:
      return t.raw.trim()
  }
}

const markdown = once(() => new Marked({ async: false, gfm: true }))
// Raw HTML in a message (a label may carry anything) is shown as text, never as markup.
const htmlMarkdown = once(() =>
  new Marked({ async: false, gfm: true }).use({
    renderer: { html: ({ text }) => Handlebars.escapeExpression(text) }
  })
)

/** The plain text of a markdown title or body: emphasis dropped, links as `text (url)`. */
export const toPlainText = (md: string): string => markdown().lexer(md).map(block).filter((s) => s !== "").join("\n\n")

/** The HTML of a markdown body (for mail). */
export const toHtml = (md: string): string => htmlMarkdown().parse(md) as string
