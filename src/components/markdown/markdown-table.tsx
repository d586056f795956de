import type { Tokens } from 'marked';
import { renderInline } from './inline-tokens';

// Alignment as classes: the renderer never writes a style attribute.
const ALIGN_CLASSES = { left: 'text-left', center: 'text-center', right: 'text-right' } as const;
const alignClass = (align: Tokens.TableCell['align']): string => (align ? ALIGN_CLASSES[align] : 'text-start');

/** A GFM table, scrolling sideways on a narrow screen rather than overflowing the message. */
export const MarkdownTable = ({ token }: { token: Tokens.Table }) => (
  <div className="my-3 max-w-full overflow-x-auto">
    <table className="border-collapse text-sm">
      <thead className="bg-raised">
        <tr>
          {token.header.map((cell, index) => (
            <th key={index} scope="col" className={`border border-line px-3 py-1.5 font-semibold ${alignClass(cell.align)}`}>
              {renderInline(cell.tokens)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {token.rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {row.map((cell, index) => (
              <td key={index} className={`border border-line px-3 py-1.5 ${alignClass(cell.align)}`}>
                {renderInline(cell.tokens)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);
