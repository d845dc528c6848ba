/**
 * The Content-Security-Policy (`style-src 'self'`) refuses inline styles: `<style>` elements
 * (even empty ones) and `style="..."` attributes. xterm's renderer writes both (its theme and cell
 * sizes into `<style>` elements it adds, a cell's true colour as a `style` attribute). This
 * carries them through the CSS object model instead, which the policy leaves alone:
 *
 * - a `<style>` element is never put into the document (`appendChild` keeps it aside); the text
 *   written into it becomes a constructed stylesheet adopted by the document, dropped again when
 *   the element is removed (`remove()`, as xterm does when disposed);
 * - `setAttribute("style", css)` becomes `element.style.cssText = css`.
 *
 * Installed once, before the terminal is made; the dashboard's own code makes no `<style>`
 * element and writes no inline style (its stylesheets are `<link>`s to its own files).
 */
let installed = false

export const installCspStyles = () => {
  if (installed) return
  installed = true
  const sheets = new Map<HTMLStyleElement, CSSStyleSheet>()
  const text = new WeakMap<HTMLStyleElement, string>()
  const adopt = (drop?: CSSStyleSheet) => {
    const ours = new Set(sheets.values())
    document.adoptedStyleSheets = [
      ...document.adoptedStyleSheets.filter((s) => !ours.has(s) && s !== drop),
      ...ours
    ]
  }
  Object.defineProperty(HTMLStyleElement.prototype, "textContent", {
    configurable: true,
    get(this: HTMLStyleElement) {
      return text.get(this) ?? ""
    },
    set(this: HTMLStyleElement, css: string | null) {
      text.set(this, css ?? "")
      let sheet = sheets.get(this)
      if (sheet === undefined) {
        sheet = new CSSStyleSheet()
        sheets.set(this, sheet)
      }
      sheet.replaceSync(css ?? "")
      adopt()
    }
  })
  const appendChild = Node.prototype.appendChild
  Node.prototype.appendChild = function<T extends Node>(this: Node, node: T): T {
    return node instanceof HTMLStyleElement ? node : appendChild.call(this, node) as T
  }
  const remove = Element.prototype.remove
  Element.prototype.remove = function(this: Element) {
    if (this instanceof HTMLStyleElement) {
      const sheet = sheets.get(this)
      sheets.delete(this)
      if (sheet !== undefined) adopt(sheet)
    }
    remove.call(this)
  }
  const setAttribute = Element.prototype.setAttribute
  Element.prototype.setAttribute = function(this: Element, name: string, value: string) {
    if (name.toLowerCase() === "style" && this instanceof HTMLElement) {
      this.style.cssText = value
      return
    }
    setAttribute.call(this, name, value)
  }
}
