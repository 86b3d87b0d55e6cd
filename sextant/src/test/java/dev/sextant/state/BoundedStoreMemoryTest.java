package dev.sextant.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

class BoundedStoreMemoryTest {

    static {
        RocksDB.loadLibrary();
    }

    @Test
    void everyStoreSharesOneWriteBufferManagerAndCachesItsIndexAndFilterBlocks() {
        BoundedStoreMemory setter = new BoundedStoreMemory();
        try (Options positions = new Options().setTableFormatConfig(new BlockBasedTableConfig());
             Options history = new Options().setTableFormatConfig(new BlockBasedTableConfig())) {
            Map<String, Object> configs = Map.of(BoundedStoreMemory.MEMORY_BYTES_CONFIG, 64L << 20);
            setter.setConfig("positions", positions, configs);
            setter.setConfig("offset-sync-history", history, configs);
            assertNotNull(positions.writeBufferManager());
            assertSame(positions.writeBufferManager(), history.writeBufferManager(), "one budget for all stores");
            BlockBasedTableConfig table = (BlockBasedTableConfig) positions.tableFormatConfig();
            assertTrue(table.cacheIndexAndFilterBlocks(), "index and filter blocks inside the budget");
            assertEquals(2, positions.maxWriteBufferNumber());
            assertTrue(BoundedStoreMemory.budgetBytes() > 0);
            setter.close("positions", positions);
            setter.close("offset-sync-history", history);
        }
    }

    @Test
    void theDefaultBudgetIsAnEighthOfTheProcessesMemoryWithinItsBounds() {
        assertEquals(128L << 20, StoreMemoryBudget.of(1L << 30), "1 GiB container");
        assertEquals(StoreMemoryBudget.MIN_BYTES, StoreMemoryBudget.of(0), "unknown");
        assertEquals(StoreMemoryBudget.MIN_BYTES, StoreMemoryBudget.of(256L << 20));
        assertEquals(StoreMemoryBudget.MAX_BYTES, StoreMemoryBudget.of(64L << 30));
    }
}
