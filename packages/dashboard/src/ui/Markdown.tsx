/**
 * Markdown from the service (notifications, READMEs) through react-markdown, which builds React
 * elements and never HTML strings: raw HTML in the source is shown as its text (never parsed),
 * link addresses other than http(s), mailto and relative ones are emptied (its
 * `defaultUrlTransform`), and images are left out (their alt text stays), so a message cannot
 * load anything. Heavy (the parser): import it from a lazy chunk.
 */
import ReactMarkdown from "react-markdown"

export const Markdown = ({ children, inline = false }: { children: string; inline?: boolean }) => (
  <ReactMarkdown
    disallowedElements={inline ? ["img", "p", "h1", "h2", "h3", "h4", "h5", "h6"] : ["img"]}
    unwrapDisallowed
  >
    {children}
  </ReactMarkdown>
)
