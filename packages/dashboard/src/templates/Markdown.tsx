/**
 * Markdown as the dashboard shows it (a template version's README): react-markdown, which builds
 * React elements (never HTML strings), with raw HTML in the source dropped (`skipHtml`, and no
 * rehype-raw) and dangerous link targets (`javascript:` ...) removed by its default URL
 * transform. Headings are moved two levels down, under the page's own. A README's YAML front
 * matter (the starter templates' listing) is left out, as the described system's dashboard does.
 */
import ReactMarkdown, { type Components } from "react-markdown"

const shifted = (level: number) => {
  const Tag = `h${Math.min(6, level + 2)}` as "h3" | "h4" | "h5" | "h6"
  return ({ children }: { children?: React.ReactNode }) => <Tag>{children}</Tag>
}

const components: Components = {
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

export const Markdown = ({ children }: { children: string }) => (
  <div className="markdown">
    <ReactMarkdown skipHtml components={components}>{withoutFrontMatter(children)}</ReactMarkdown>
  </div>
)
