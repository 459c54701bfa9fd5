import ActorReentrancy
import AsyncDataSource
import CheckThenAct
import CoordinatorLocking
import PersistentStore
import RaceLab
import SubscriptRace

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
