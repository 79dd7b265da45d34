/** A CSV file's records (RFC 4180: quoted fields, doubled quotes, CRLF), its BOM removed; throws on a malformed file. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const input = text.replace(/^\uFEFF/, '');
  for (let index = 0; index < input.length; index++) {
    const char = input[index];
    if (quoted) {
      if (char === '"' && input[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && input[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index++;
    } else if (char === '"') throw new Error(`Guillemet inattendu à ${index}`);
    else field += char;
  }
  if (quoted) throw new Error('Champ entre guillemets non fermé');
  if (field !== '' || row.length > 0) throw new Error('Dernière ligne sans fin de ligne');
  return rows;
}
