/** Something an element may hold: a node, text, or nothing (skipped). */
export type Child = Node | string | number | null | undefined | false;

/** Attributes of an element: `on…` names take listeners, `true` sets a bare attribute, absent values are skipped. */
export type Attributes = Record<
  string,
  string | number | boolean | null | undefined | ((event: Event) => void)
>;

/** An HTML element with its attributes and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...nodes(children));
  return element;
}

/** A form control under its label (`id` is the control's), with anything else to show below it. */
export function field(id: string, label: string, control: HTMLElement, ...below: Child[]): HTMLElement {
  return el('div', { class: 'field' }, el('label', { for: id }, label), control, ...below);
}

/** A select of `[value, label]` options, with `value` chosen. */
export function choice(id: string, options: string[][], value = ''): HTMLSelectElement {
  const select = el('select', { id }, ...options.map(([v, label]) => el('option', { value: v }, label)));
  select.value = value;
  return select;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with its attributes and children. */
export function svg(tag: string, attributes: Attributes = {}, ...children: (Child | Child[])[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag) as SVGElement;
  setAttributes(element, attributes);
  element.append(...nodes(children));
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined)
      element.setAttribute(name, String(value));
  }
}

function nodes(children: (Child | Child[])[]): (Node | string)[] {
  return children
    .flat()
    .filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (typeof child === 'number' ? String(child) : (child as Node | string)));
}
