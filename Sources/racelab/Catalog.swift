import RaceLab
import SubscriptRace
import CheckThenAct
import ActorReentrancy
import CoordinatorLocking
import PersistentStore
import AsyncDataSource

/// Every lesson the `racelab` tool knows, in workshop order. A new lesson adds one line here
/// (and one in `Package.swift`).
let catalog: [Lesson] = [
    SubscriptRaceLesson.lesson,
    CheckThenActLesson.lesson,
    ActorReentrancyLesson.lesson,
    CoordinatorLockingLesson.lesson,
    PersistentStoreLesson.lesson,
    AsyncDataSourceLesson.lesson,
]
