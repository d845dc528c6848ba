/**
 * Markdown from the service (notifications, READMEs) through react-markdown, which builds React
 * elements and never HTML strings: raw HTML in the source is shown as its text (never parsed),
 * link addresses other than http(s), mailto and relative ones are emptied (its
 * `defaultUrlTransform`), and images are left out (their alt text stays), so a message cannot
 * load anything. Heavy (the parser): import it from a lazy chunk.
 */
import ReactMarkdown from "react-markdown"

/** An image is its alt text: a message loads nothing (no tracking pixel, no remote content). */
const components = { img: ({ alt }: { alt?: string | undefined }) => alt ?? null }

/** `inline`: for a title, without paragraphs and headings (their text stays). */
export const Markdown = ({ children, inline = false }: { children: string; inline?: boolean }) => (
  <ReactMarkdown
    components={components}
    disallowedElements={inline ? ["p", "h1", "h2", "h3", "h4", "h5", "h6"] : []}
    unwrapDisallowed
  >
    {children}
  </ReactMarkdown>
)
