import DataLoader from 'dataloader';

/**
 * Reads of rows by id begun in the same tick go out as ONE statement (`read` gets every id at once): a worker's
 * fetch starts tens of jobs together, and every statement is a round trip and a socket write on both sides. Nothing
 * is cached: each caller reads its row as it is now (erased, say), or null when it is gone.
 */
export function rowsById<Row extends { id: number }>(read: (ids: readonly number[]) => Promise<readonly Row[]>): (id: number) => Promise<Row | null> {
  const loader = new DataLoader<number, Row | null>(
    async (ids) => {
      const rows = new Map((await read(ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id) ?? null);
    },
    { cache: false },
  );
  return (id) => loader.load(id);
}
