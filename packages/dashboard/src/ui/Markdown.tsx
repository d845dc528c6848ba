/**
 * Markdown from the service through react-markdown, which builds React elements and never HTML
 * strings: nothing in the source becomes markup the page runs. Link addresses other than http(s),
 * mailto and relative ones are emptied (its `defaultUrlTransform`). Heavy (the parser): import it
 * from a lazy chunk. Two uses:
 *
 * - a message (notifications; `inline` for a title, without paragraphs and headings): raw HTML is
 *   shown as its text, and images are left out (their alt text stays), so a message cannot load
 *   anything (no tracking pixel, no remote content);
 * - a `document` (a template version's README): raw HTML is dropped (`skipHtml`), headings move
 *   two levels down, under the page's own, and the YAML front matter (the starter templates'
 *   listing) is left out, as the described system's dashboard does. Its images are shown (the
 *   page's policy allows https images).
 */
import type { ReactNode } from "react"
import ReactMarkdown, { type Components } from "react-markdown"

/** An image is its alt text. */
const messageComponents: Components = { img: ({ alt }) => alt ?? null }

const shifted = (level: number) => {
  const Tag = `h${Math.min(6, level + 2)}` as "h3" | "h4" | "h5" | "h6"
  return ({ children }: { children?: ReactNode }) => <Tag>{children}</Tag>
}

const documentComponents: Components = {
  h1: shifted(1),
  h2: shifted(2),
  h3: shifted(3),
  h4: shifted(4),
  h5: shifted(5),
  h6: shifted(6)
}

/** The text without its YAML front matter (a first line `---` up to the next `---` line). */
export const withoutFrontMatter = (text: string) => {
  const match = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(text)
  return match === null ? text : text.slice(match[0].length)
}

export const Markdown = (
  { children, inline = false, document = false }: { children: string; inline?: boolean; document?: boolean }
) =>
  document
    ? (
      <div className="markdown">
        <ReactMarkdown skipHtml components={documentComponents}>{withoutFrontMatter(children)}</ReactMarkdown>
      </div>
    )
    : (
      <ReactMarkdown
        components={messageComponents}
        disallowedElements={inline ? ["p", "h1", "h2", "h3", "h4", "h5", "h6"] : []}
        unwrapDisallowed
      >
        {children}
      </ReactMarkdown>
    )
