package dev.sextant.state;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * One memory budget for every RocksDB store of the process: a single block cache that also holds the stores' index
 * and filter blocks, and a write-buffer manager that charges every memtable to that cache. Without it each store gets
 * Kafka Streams' defaults (its own 50 MB block cache, up to three 16 MB memtables, index and filter blocks outside any
 * cache); an instance holds about 150 stores (two per {@code __consumer_offsets} task, one per share-state task, the
 * history, the sync holds, and a standby of each), so its resident memory had no bound but the number of tasks.
 *
 * <p>The budget is {@link #MEMORY_BYTES_CONFIG} from the Kafka Streams configuration ({@code state.memory.bytes});
 * memtables may take {@link #WRITE_BUFFER_SHARE} of it. Index and filter blocks are cached with high priority so that
 * data blocks are evicted first. Kafka Streams instantiates this class per store, so the cache and the manager are
 * shared statics, sized by the first store opened in the process and never closed: they live as long as the JVM.
 *
 * <p>Approximate, as RocksDB's own accounting is: the cache may briefly exceed its capacity while blocks are pinned by
 * running iterators, and each open store keeps a small fixed overhead outside it.
 */
public final class BoundedStoreMemory implements RocksDBConfigSetter {

    /** The key under which Sextant passes the budget, in bytes, to Kafka Streams. */
    public static final String MEMORY_BYTES_CONFIG = "sextant.state.memory.bytes";
    /** The share of the budget memtables may hold before RocksDB flushes them. */
    static final double WRITE_BUFFER_SHARE = 0.25;
    /** The share of the cache kept for index and filter blocks. */
    private static final double HIGH_PRIORITY_SHARE = 0.1;
    /** Memtables per store: one being written, one being flushed. */
    private static final int MEMTABLES_PER_STORE = 2;
    /** One memtable's size: small, as most stores hold little, and the manager bounds the total anyway. */
    private static final long MEMTABLE_BYTES = 4L << 20;

    private static Cache cache; // guarded by BoundedStoreMemory.class
    private static WriteBufferManager writeBuffers; // guarded by BoundedStoreMemory.class
    private static long budget; // guarded by BoundedStoreMemory.class

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        Object configured = configs.get(MEMORY_BYTES_CONFIG);
        long bytes = configured == null ? StoreMemoryBudget.defaultBytes() : Long.parseLong(configured.toString());
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        synchronized (BoundedStoreMemory.class) {
            if (cache == null) {
                budget = bytes;
                cache = new LRUCache(bytes, -1, false, HIGH_PRIORITY_SHARE);
                writeBuffers = new WriteBufferManager((long) (bytes * WRITE_BUFFER_SHARE), cache);
            }
            table.setBlockCache(cache);
            options.setWriteBufferManager(writeBuffers);
        }
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinL0FilterAndIndexBlocksInCache(true);
        options.setTableFormatConfig(table);
        options.setMaxWriteBufferNumber(MEMTABLES_PER_STORE);
        options.setWriteBufferSize(MEMTABLE_BYTES);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the manager are shared by every store of the process: never closed with one of them
    }

    /** The budget the shared cache was created with, 0 before any store opened. */
    public static synchronized long budgetBytes() {
        return budget;
    }
}
