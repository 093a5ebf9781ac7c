// A sprint's burndown as an SVG image (image/svg+xml), for hosts that show images.
//
// The x axis is the whole sprint, start_date to end_date, so a sprint under way shows how far
// it has come; the y axis runs from 0 to the largest scope. The remaining story points are the
// solid line, the ideal line (from the first day's scope to 0 on the last) is dashed. Every piece of text comes from the data (the sprint's
// name is anyone's text), so it is escaped for XML.
import type { Burndown } from '../store/index.js';

const WIDTH = 560;
const HEIGHT = 280;
const LEFT = 48;
const RIGHT = 16;
const TOP = 36;
const BOTTOM = 40;
const DAY_MS = 86_400_000;

export function burndownSvg(burndown: Burndown): string {
  const days = Math.max(1, Math.round((Date.parse(burndown.end_date) - Date.parse(burndown.start_date)) / DAY_MS));
  const top = Math.max(1, ...burndown.points.map((p) => Math.max(p.scope_points, p.ideal_points)));
  const x = (index: number) => round(LEFT + (index / days) * (WIDTH - LEFT - RIGHT));
  const y = (points: number) => round(TOP + (1 - points / top) * (HEIGHT - TOP - BOTTOM));
  const remaining = burndown.points.map((point, index) => `${x(index)},${y(point.remaining_points)}`).join(' ');
  const title = `${burndown.name} (${burndown.sprint}): remaining story points per day`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${LEFT}" y="20" font-size="14">${escapeXml(title)}</text>`,
    `<line x1="${LEFT}" y1="${y(0)}" x2="${WIDTH - RIGHT}" y2="${y(0)}" stroke="#888"/>`,
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${y(0)}" stroke="#888"/>`,
    `<text x="${LEFT - 6}" y="${y(top) + 4}" text-anchor="end">${top}</text>`,
    `<text x="${LEFT - 6}" y="${y(0) + 4}" text-anchor="end">0</text>`,
    `<text x="${LEFT}" y="${HEIGHT - 16}">${escapeXml(burndown.start_date)}</text>`,
    `<text x="${WIDTH - RIGHT}" y="${HEIGHT - 16}" text-anchor="end">${escapeXml(burndown.end_date)}</text>`,
    `<line x1="${x(0)}" y1="${y(burndown.points[0]?.ideal_points ?? 0)}" x2="${x(days)}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 4"/>`,
    `<polyline fill="none" stroke="#c0392b" stroke-width="2" points="${remaining}"/>`,
    '</svg>',
  ].join('\n');
}

const round = (value: number): number => Math.round(value * 10) / 10;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
