import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import Markdown from './markdown';
import { diagramConfig } from './mermaid-config';

const renderDiagram = vi.hoisted(() => vi.fn<(source: string, dark: boolean) => Promise<string | null>>());
vi.mock('./mermaid-render', () => ({ renderDiagram }));

beforeAll(async () => {
  await initI18n('en-US');
});

afterEach(() => {
  renderDiagram.mockReset();
});

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200.5 80"><text>A</text></svg>';
const diagram = '```mermaid\ngraph TD\n  A --> B\n```';

describe('diagrams in answers', () => {
  it('draws a finished mermaid block as an image with a text alternative, its code one click away', async () => {
    renderDiagram.mockResolvedValue(SVG);
    render(<Markdown source={`Here:\n\n${diagram}`} />);

    const image = await screen.findByRole('img', { name: /Diagram drawn from the answer/ });
    expect(image.getAttribute('src')).toMatch(/^blob:/);
    expect(image).toHaveAttribute('width', '201');
    expect(renderDiagram).toHaveBeenCalledWith('graph TD\n  A --> B', false);
    fireEvent.click(screen.getByRole('button', { name: 'Show code' }));
    expect(screen.getByText(/graph TD/)).toBeInTheDocument();
  });

  it('keeps an invalid diagram as its code block', async () => {
    renderDiagram.mockResolvedValue(null);
    const { container } = render(<Markdown source={'```mermaid\ngraph TD\n  A -->\n```'} />);
    await waitFor(() => expect(renderDiagram).toHaveBeenCalled());
    await Promise.resolve();
    expect(container.querySelector('[data-diagram]')).toBeNull();
    expect(container.querySelector('figure[data-language="mermaid"] code')).toHaveTextContent('A -->');
  });

  it('does not draw a block still being written', async () => {
    renderDiagram.mockResolvedValue(SVG);
    const { container, rerender } = render(<Markdown source={'```mermaid\ngraph TD\n  A --> B'} streaming />);
    expect(container.querySelector('figure[data-language="mermaid"]')).toHaveTextContent('Writing…');
    expect(renderDiagram).not.toHaveBeenCalled();
    rerender(<Markdown source={`${diagram}\n\nDone.`} streaming={false} />);
    expect(await screen.findByRole('img')).toBeInTheDocument();
    expect(renderDiagram).toHaveBeenCalledTimes(1);
  });

  it('asks Mermaid for strict security, SVG labels and settings a diagram cannot loosen', () => {
    const config = diagramConfig(true);
    expect(config).toMatchObject({ securityLevel: 'strict', htmlLabels: false, flowchart: { htmlLabels: false }, theme: 'dark', startOnLoad: false });
    expect(config.secure).toEqual(expect.arrayContaining(['securityLevel', 'htmlLabels', 'flowchart', 'themeCSS', 'maxTextSize', 'secure']));
  });
});

describe('actor menus of sequence diagrams', () => {
  it('are left out of what Mermaid draws, and nothing else is', async () => {
    const { withoutActorMenus } = await vi.importActual<typeof import('./mermaid-render')>('./mermaid-render');
    const sequence = 'sequenceDiagram\n  participant A\n  link A: Evil @ javascript:alert(1)\n  links A: {"x": "https://evil.example"}\n  A->>A: link B: stays';
    expect(withoutActorMenus(sequence)).toBe('sequenceDiagram\n  participant A\n\n\n  A->>A: link B: stays');
    const flowchart = 'graph TD\n  link A: x\n  linkStyle 0 stroke:#f00';
    expect(withoutActorMenus(flowchart)).toBe(flowchart);
  });
});
