import { EthleError } from '../errors/EthleError.js';

export interface TemplateValues {
  RepresentationID: string;
  Number?: number;
  Bandwidth?: number;
  Time?: number;
}

const IDENT_RE = /\$(RepresentationID|Number|Bandwidth|Time|SubNumber)?(?:%0(\d{1,2})d)?\$/g;

/** Expands a SegmentTemplate URL (`$RepresentationID$`, `$Number%05d$`, `$Time$`, `$Bandwidth$`, `$$`). */
export function expandTemplate(template: string, v: TemplateValues): string {
  return template.replace(IDENT_RE, (whole, id: string | undefined, width: string | undefined) => {
    if (id === undefined) {
      if (width !== undefined) throw new EthleError('ERR_DASH_MALFORMED', `bad template identifier ${whole}`);
      return '$';
    }
    const value = id === 'RepresentationID' ? v.RepresentationID : (v as unknown as Record<string, number | undefined>)[id];
    if (value === undefined) throw new EthleError('ERR_DASH_MALFORMED', `template uses $${id}$ but it has no value here`, { template });
    const s = String(value);
    return width === undefined || id === 'RepresentationID' ? s : s.padStart(Number(width), '0');
  });
}
